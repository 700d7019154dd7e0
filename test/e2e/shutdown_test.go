package e2e_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// SIGTERM while a hook runs long: the process exits within the grace
// period with code 0, and no process of the hook is left.
func TestSigtermDuringALongHook(t *testing.T) {
	root := t.TempDir()
	marker := "long-hook-" + filepath.Base(root)
	hook := "#!/usr/bin/env bash\nif [[ ${1:-} == --config ]]; then echo '{\"configVersion\":\"v1\",\"onStartup\":1}'; exit 0; fi\n" +
		"echo started\nexec -a " + marker + " sleep 300\n"
	if err := os.MkdirAll(filepath.Join(root, "global-hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "global-hooks", "long"), []byte(hook), 0o755); err != nil {
		t.Fatal(err)
	}
	op := startOperator(t, root, kube.Namespace(t), "ADDON_OPERATOR_SHUTDOWN_GRACE=2s")
	op.waitRecord(t, "started", map[string]any{"output": "stdout"})
	start := time.Now()
	op.stop(t)
	took := time.Since(start)
	if code := op.cmd.ProcessState.ExitCode(); code != 0 {
		t.Fatalf("exit code %d\n%s", code, op.logText())
	}
	if took > 15*time.Second {
		t.Fatalf("stopping took %s with a 2s grace period", took)
	}
	t.Logf("stopped in %s", took)
	if pids := processesNamed(marker); len(pids) > 0 {
		t.Fatalf("hook processes left: %v", pids)
	}
}

// processesNamed lists the pids whose command line starts with name.
func processesNamed(name string) []string {
	entries, _ := os.ReadDir("/proc")
	var pids []string
	for _, e := range entries {
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.HasPrefix(string(cmdline), name) {
			pids = append(pids, e.Name())
		}
	}
	return pids
}
