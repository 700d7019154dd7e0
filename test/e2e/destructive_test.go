package e2e_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/release"

	"github.com/addon-actors/addon-operator/chartrun"
	"github.com/addon-actors/addon-operator/test/scenario"
)

// ourRelease installs the chart in dir as name with value v through
// chartrun, as an earlier run of the operator did (labelled ours).
func ourRelease(t *testing.T, ns, name, dir, v string) {
	t.Helper()
	r, err := chartrun.NewReleaser(kube.Config(t), ns, chartrun.Options{})
	if err != nil {
		t.Fatal(err)
	}
	vals := map[string]any{name: map[string]any{"value": v}}
	if _, err := r.Upgrade(context.Background(), chartrun.Request{Release: name, ChartDir: dir, Values: vals}); err != nil {
		t.Fatal(err)
	}
}

// killMidUpgrade leaves the release as an operator killed during the
// upgrade to its latest revision does: that revision pending-upgrade, the
// one before still deployed.
func killMidUpgrade(t *testing.T, cfg *action.Configuration, name string) {
	t.Helper()
	last := scenario.LastRelease(t, cfg, name).Version
	for version, status := range map[int]release.Status{last - 1: release.StatusDeployed, last: release.StatusPendingUpgrade} {
		scenario.SetReleaseStatus(t, cfg, name, version, status)
	}
}

// warned waits for the WARN record msg about release and returns its
// reason.
func warned(t *testing.T, op *operator, msg, release string) string {
	t.Helper()
	rec := op.waitRecord(t, msg, map[string]any{"release": release})
	if rec["level"] != "WARN" {
		t.Fatalf("%q for %s logged at %v; want WARN", msg, release, rec["level"])
	}
	reason, _ := rec["reason"].(string)
	return reason
}

// checkCounted fails unless /metrics counts the destructive action once.
func checkCounted(t *testing.T, op *operator, module, act, reason string) {
	t.Helper()
	_, metrics := op.get(t, "/metrics")
	line := `addon_operator_helm_destructive_actions_total{action="` + act + `",module="` + module +
		`",reason="` + reason + `"} 1`
	if !strings.Contains(metrics, line+"\n") {
		t.Fatalf("/metrics lacks %s", line)
	}
}

// Each destructive action on a release is logged at WARN with its reason
// and counted by module, action and reason: a labelled release whose module
// dir is gone is purged; a release left pending-upgrade by a killed
// operator is rolled back and upgraded, and no revision is left pending in
// its history; a release installed by plain helm is adopted; a module
// disabled in the ConfigMap has its release uninstalled.
func TestDestructiveActionsAreLoggedAndCounted(t *testing.T) {
	root := tree(t, chartModules([]string{"stuck", "foreign", "dropped"}, "gone"))
	ns := kube.Namespace(t)
	cfg := plainHelm(t, ns)
	ourRelease(t, ns, "gone", filepath.Join(root, "charts/gone"), "a")
	ourRelease(t, ns, "stuck", filepath.Join(root, "modules/stuck"), "a")
	ourRelease(t, ns, "stuck", filepath.Join(root, "modules/stuck"), "b")
	killMidUpgrade(t, cfg, "stuck")
	helmInstall(t, cfg, ns, "foreign", loadChart(t, filepath.Join(root, "modules/foreign")), nil, false)

	op := startSpec(t, root, ns)
	op.waitReady(t)
	op.waitIdle(t)
	if reason := warned(t, op, "purged release without a module dir", "gone"); !strings.Contains(reason, "module dir gone") {
		t.Fatalf("purge reason %q", reason)
	}
	checkCounted(t, op, "gone", "purge", "module-dir-gone")
	if reason := warned(t, op, "cleared stuck helm release", "stuck"); !strings.Contains(reason, "release pending-upgrade since ") ||
		!strings.HasSuffix(reason, ": rolled back to revision 1") {
		t.Fatalf("clear reason %q", reason)
	}
	checkCounted(t, op, "stuck", "clear", "pending-upgrade")
	history, err := cfg.Releases.History("stuck")
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range history {
		if h.Info.Status.IsPending() || (h.Version == 2 && h.Info.Status != release.StatusFailed) {
			t.Fatalf("revision %d of stuck is %s after the recovery", h.Version, h.Info.Status)
		}
	}
	if got := scenario.ConfigMapData(t, kube, ns, "stuck")["value"]; got != "ours" || len(history) != 4 {
		t.Fatalf("stuck after recovery: value %q, %d revisions; want ours, 4", got, len(history))
	}
	if reason := warned(t, op, chartrun.AdoptedMessage, "foreign"); reason != "revision 1 not labelled heritage=addon-operator" {
		t.Fatalf("adoption reason %q", reason)
	}
	checkCounted(t, op, "foreign", "adopt", "unlabelled")

	scenario.PutConfigMap(t, kube, ns, map[string]string{"droppedEnabled": "false"})
	rec := op.waitRecord(t, "uninstalled release of disabled module", map[string]any{"module": "dropped"})
	if rec["level"] != "WARN" || rec["reason"] != "disabled in ConfigMap key droppedEnabled" {
		t.Fatalf("uninstall record %v; want WARN with the ConfigMap key", rec)
	}
	checkCounted(t, op, "dropped", "uninstall", "configmap")
	if scenario.ConfigMapData(t, kube, ns, "dropped") != nil {
		t.Fatal("the disabled module's objects remain")
	}
}
