package e2e_test

import (
	"slices"
	"strings"
	"testing"
)

// A module whose module.yaml says it requires nothing (`requirements:
// {modules: {}}`) is held by nothing: with broken at weight 060 failing,
// free at 080 is installed while broken keeps failing; held at 090, with
// no requirements key, keeps the weight order and waits for broken. One by
// one and with parallel runs.
func TestRequirementNoneLeavesWeightOrder(t *testing.T) {
	inBothRunModes(t, func(t *testing.T, parallel string) {
		files := map[string]string{"modules/values.yaml": ""}
		reqModule(files, "060-broken", "0.1.0", "")
		files["modules/060-broken/hooks/before"] = hook(`{"configVersion":"v1","beforeHelm":1}`, "echo broken is broken >&2; exit 1")
		reqModule(files, "080-free", "0.1.0", "")
		files["modules/080-free/module.yaml"] = "requirements: {modules: {}}\n"
		reqModule(files, "090-held", "0.1.0", "")
		root, ns := tree(t, files), kube.Namespace(t)
		op := startSpec(t, root, ns, parallel, "RETRY_INITIAL_DELAY=60s", "RETRY_MAX_DELAY=60s")
		op.waitRecord(t, "task failed; retrying", map[string]any{"attempt": 1.0})
		op.waitRecord(t, "helm", map[string]any{"module": "free"})
		releaseDeployed(t, ns, "free")
		if w := op.why(t, "broken"); w.Retry == nil || !strings.Contains(w.Retry.LastError, "broken is broken") {
			t.Fatalf("broken is not failing: %+v", w)
		}
		if got := op.why(t, "held").Summary; !strings.HasPrefix(got, "waiting for broken: ") {
			t.Fatalf("module why held: %q, want it waiting for broken", got)
		}
		if got := lines(root, "order"); slices.Contains(got, "start held") || !releaseGone(t, ns, "held") {
			t.Fatalf("held ran while broken fails: %v", got)
		}
	})
}
