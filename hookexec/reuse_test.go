package hookexec

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A finished run's directory that holds only the run's files is used
// again: the next run finds its inputs and nothing else (values and a
// binding context shorter than what the last run left there) and its
// output files empty, as in a new directory. Close leaves the temp dir
// empty.
func TestRunDirsAreReusedAsNew(t *testing.T) {
	out, tmp := t.TempDir(), t.TempDir()
	r := newRunner(t, Options{TmpDir: tmp, Environ: baseEnv("OUT_DIR=" + out)})
	const runs = 6
	for i := range runs {
		values := fmt.Sprintf(`{"run":%d,"pad":%q}`, i, strings.Repeat("x", 10*(runs-i)))
		req := Request{Hook: testHook(t, "reuse-dir.sh"), Values: []byte(values),
			BindingContext: []byte(fmt.Sprintf(`[{"binding":"b%d"}]`, i)), Scope: PatchScope{RootKey: "someModule"}}
		if _, err := r.Run(context.Background(), req); err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
		r.background.Wait() // the directory is back for the next run
	}
	dirs, values := map[string]bool{}, map[string]bool{}
	for _, lines := range runRecords(t, out, runs, 4) { // dir, files, values, binding context
		dirs[lines[0]] = true
		values[lines[2]] = true
		var run int
		if _, err := fmt.Sscanf(lines[2], `{"run":%d,`, &run); err != nil || lines[3] != fmt.Sprintf(`[{"binding":"b%d"}]`, run) {
			t.Errorf("run in %s: values %q with binding context %q, want the run's own", lines[0], lines[2], lines[3])
		}
	}
	if len(values) != runs {
		t.Errorf("%d runs saw %d distinct values, want %d", runs, len(values), runs)
	}
	if len(dirs) != 1 {
		t.Errorf("%d runs one after another used %d directories, want one reused: %v", runs, len(dirs), dirs)
	}
	r.Close()
	assertNoEntries(t, tmp)
}

// A directory where the hook put a symlink in the place of a run's file is
// not used again: the next run writes no input through it. The symlink in
// the place of the values patch fails each run (readOutput).
func TestRunDirWithASymlinkIsNotReused(t *testing.T) {
	out, tmp := t.TempDir(), t.TempDir()
	target := filepath.Join(out, "target")
	if err := os.WriteFile(target, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	r := newRunner(t, Options{TmpDir: tmp, Environ: baseEnv("OUT_DIR=" + out)})
	for i := range 3 {
		req := Request{Hook: testHook(t, "symlink-output.sh"), Values: []byte(fmt.Sprintf(`{"run":%d}`, i)),
			Scope: PatchScope{RootKey: "someModule"}}
		_, err := r.Run(context.Background(), req)
		wantErr(t, err, ErrNotRegularOutput, EnvValuesJSONPatchPath)
		r.background.Wait()
	}
	if got := readFile(t, target); got != "" {
		t.Errorf("the symlinks' target holds %q, want it untouched", got)
	}
	r.Close()
	assertNoEntries(t, tmp)
}

// A directory where the hook changed a file's mode is not used again.
func TestRunDirWithAChangedModeIsNotReused(t *testing.T) {
	out, tmp := t.TempDir(), t.TempDir()
	r := newRunner(t, Options{TmpDir: tmp, Environ: baseEnv("OUT_DIR=" + out)})
	for i := range 3 {
		req := Request{Hook: testHook(t, "chmod-file.sh"), Scope: PatchScope{RootKey: "someModule"}}
		if _, err := r.Run(context.Background(), req); err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
		r.background.Wait()
	}
	dirs := strings.Fields(readFile(t, filepath.Join(out, "dirs")))
	if len(dirs) != 3 || dirs[0] == dirs[1] || dirs[1] == dirs[2] || dirs[0] == dirs[2] {
		t.Errorf("runs used the directories %q, want three different ones", dirs)
	}
	r.Close()
	assertNoEntries(t, tmp)
}
