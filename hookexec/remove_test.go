package hookexec

import (
	"context"
	"testing"
)

// The run directory goes after a run whether the hook left only the run's
// files (removed by name) or files and directories of its own too.
func TestRunDirRemovedWithWhatTheHookLeft(t *testing.T) {
	for _, name := range []string{"trivial.sh", "leave-file.sh"} {
		t.Run(name, func(t *testing.T) {
			tmp := t.TempDir()
			r := newRunner(t, Options{TmpDir: tmp, Environ: baseEnv()})
			if _, err := r.Run(context.Background(), Request{Hook: testHook(t, name), Scope: PatchScope{RootKey: "m"}}); err != nil {
				t.Fatal(err)
			}
			r.Close()
			assertNoEntries(t, tmp)
		})
	}
}
