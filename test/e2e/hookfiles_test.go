package e2e_test

import (
	"regexp"
	"strings"
	"testing"
)

// A hook's output files are read bounded and never through a symlink: a
// module hook writing a metrics file over ADDON_OPERATOR_HOOK_METRICS_MAX_BYTES
// (1 KiB here) fails its run with an error naming METRICS_PATH and the
// cap, counted in module_hook_errors_total; a global hook that puts a
// symlink to /etc/passwd in the place of its values patch file fails naming
// VALUES_JSON_PATCH_PATH, and nothing of /etc/passwd is read.
func TestHookOutputFilesAreBounded(t *testing.T) {
	root, ns := t.TempDir(), kube.Namespace(t)
	writeFiles(t, root, map[string]string{
		"modules/values.yaml": "bigEnabled: true\n",
		"modules/001-big/hooks/metrics": hook(`{"configVersion":"v1","beforeHelm":1}`,
			`head -c 2000 /dev/zero | tr '\0' ' ' > "$METRICS_PATH"`),
		"global-hooks/link": hook(`{"configVersion":"v1","onStartup":1}`,
			`ln -sf /etc/passwd "$VALUES_JSON_PATCH_PATH"`),
	})
	op := startSpec(t, root, ns, "ADDON_OPERATOR_HOOK_METRICS_MAX_BYTES=1024")
	e, _ := waitFailure(t, op, "global-hooks/link")["err"].(string)
	if !strings.Contains(e, "VALUES_JSON_PATCH_PATH") || !strings.Contains(e, "symlink") || strings.Contains(e, "root:") {
		t.Errorf("global hook failure %q, want VALUES_JSON_PATCH_PATH and the symlink named, nothing of /etc/passwd", e)
	}
	// the onStartup run holds the converge until it passes: its retry runs this
	writeFiles(t, root, map[string]string{"global-hooks/link": hook(`{"configVersion":"v1","onStartup":1}`, `true`)})
	e, _ = waitFailure(t, op, "hooks/metrics")["err"].(string)
	for _, want := range []string{"METRICS_PATH", "2000 bytes or more, the cap is 1024 bytes"} {
		if !strings.Contains(e, want) {
			t.Errorf("module hook failure %q lacks %q", e, want)
		}
	}
	_, metrics := op.get(t, "/metrics")
	if !regexp.MustCompile(`(?m)^addon_operator_module_hook_errors_total\{[^}]*hook="hooks/metrics"[^}]*\} [1-9]`).MatchString(metrics) {
		t.Errorf("/metrics counts no module_hook_errors_total of hooks/metrics:\n%s", grepLines(metrics, "hook_errors_total"))
	}
}
