package e2e_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/release"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	opcore "github.com/addon-actors/addon-operator/actors/operator"
	"github.com/addon-actors/addon-operator/test/scenario"
)

// Helm's stuck states (issue 45 item 2) through the binary: releases of
// ours forced, through helm's storage, into each state a killed operator
// (or someone's helm) leaves.

// stuckStates maps each module of the fixture to the state its release is
// forced into.
var stuckStates = map[string]release.Status{"pi": release.StatusPendingInstall, "pu": release.StatusPendingUpgrade,
	"pr": release.StatusPendingRollback, "un": release.StatusUninstalling}

// forceStuck leaves the release's latest revision in state, as a helm
// action killed half-way does: pending-upgrade and pending-rollback over
// the revision before, still deployed; uninstalling after the uninstall
// deleted the release's ConfigMap.
func forceStuck(t *testing.T, cfg *action.Configuration, ns, name string, state release.Status) {
	t.Helper()
	last := scenario.LastRelease(t, cfg, name).Version
	if state == release.StatusPendingUpgrade || state == release.StatusPendingRollback {
		scenario.SetReleaseStatus(t, cfg, name, last-1, release.StatusDeployed)
	}
	scenario.SetReleaseStatus(t, cfg, name, last, state)
	if state == release.StatusUninstalling {
		if err := kube.Client(t).CoreV1().ConfigMaps(ns).Delete(context.Background(), name, metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
}

// stuckFixture is one module per stuck state plus "off", disabled, whose
// release is left uninstalling and whose afterDeleteHelm records, and a
// release "theirs" of no module left pending-upgrade.
func stuckFixture(t *testing.T) (root, ns string, cfg *action.Configuration) {
	t.Helper()
	files := map[string]string{"modules/values.yaml": ""}
	for _, m := range []string{"pi", "pr", "pu", "un", "off"} {
		reqModule(files, "010-"+m, "0.1.0", "")
	}
	files["modules/values.yaml"] = strings.Replace(files["modules/values.yaml"], "offEnabled: true", "offEnabled: false", 1)
	files["modules/010-off/hooks/deleted"] = hook(`{"configVersion":"v1","afterDeleteHelm":1}`, `record "deleted off" order`)
	root, ns = tree(t, files), kube.Namespace(t)
	cfg = plainHelm(t, ns)
	for _, m := range []string{"pi", "pr", "pu", "un", "off"} {
		dir := filepath.Join(root, "modules/010-"+m)
		ourRelease(t, ns, m, dir, "a")
		if m != "pi" && m != "off" {
			ourRelease(t, ns, m, dir, "b")
		}
	}
	for m, state := range stuckStates {
		forceStuck(t, cfg, ns, m, state)
	}
	forceStuck(t, cfg, ns, "off", release.StatusUninstalling)
	helmInstall(t, cfg, ns, "theirs", loadChart(t, filepath.Join(root, "modules/010-pu")), nil, false)
	scenario.SetReleaseStatus(t, cfg, "theirs", 1, release.StatusPendingUpgrade)
	return root, ns, cfg
}

// checkRecovered fails unless the module's release is deployed with its
// ConfigMap, no revision is left pending, and the recovery of state was
// logged at WARN and counted times times.
func checkRecovered(t *testing.T, op *operator, cfg *action.Configuration, ns, module string, state release.Status, times int) {
	t.Helper()
	releaseDeployed(t, ns, module)
	checkNoPendingRevision(t, cfg, module)
	if n := op.count("cleared stuck helm release", map[string]any{"release": module, "status": string(state), "level": "WARN"}); n != times {
		t.Fatalf("%s: %d WARN records of its %s recovery, want %d", module, n, state, times)
	}
	line := `addon_operator_helm_recoveries_total{module="` + module + `",state="` + string(state) + `"} `
	metricHas(t, op, line+string(rune('0'+times))+"\n")
}

func checkNoPendingRevision(t *testing.T, cfg *action.Configuration, name string) {
	t.Helper()
	history, err := cfg.Releases.History(name)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range history {
		if h.Info.Status.IsPending() || h.Info.Status == release.StatusUninstalling {
			t.Fatalf("revision %d of %s left %s", h.Version, name, h.Info.Status)
		}
	}
}

// At start-up every stuck release of ours is recovered with no manual
// step: each enabled module's is deployed by its run, the disabled
// module's uninstalling release is uninstalled again and its
// afterDeleteHelm runs; each recovery is logged with the revision and
// state and counted; the stuck release of no module is reported and left
// alone. Forced again while the operator runs, a module's next run
// recovers it the same way. One by one and with parallel runs.
func TestStuckReleasesAreRecovered(t *testing.T) {
	inBothRunModes(t, func(t *testing.T, parallel string) {
		root, ns, cfg := stuckFixture(t)
		op := startSpec(t, root, ns, parallel)
		op.waitReady(t)
		op.waitIdle(t)
		for m, state := range stuckStates {
			checkRecovered(t, op, cfg, ns, m, state, 1)
		}
		if !releaseGone(t, ns, "off") || !slices.Contains(lines(root, "order"), "deleted off") {
			t.Fatalf("off: its uninstalling release is not finished: order %v", lines(root, "order"))
		}
		metricHas(t, op, `addon_operator_helm_recoveries_total{module="off",state="uninstalling"} 1`+"\n")
		if rec := op.waitRecord(t, opcore.StuckForeignMessage, map[string]any{"release": "theirs"}); rec["level"] != "WARN" ||
			rec["found"] != "revision 1 left pending-upgrade" {
			t.Fatalf("theirs reported as %v", rec)
		}
		if last := scenario.LastRelease(t, cfg, "theirs"); last.Version != 1 || last.Info.Status != release.StatusPendingUpgrade {
			t.Fatalf("theirs was touched: revision %d %s", last.Version, last.Info.Status)
		}

		// Forced while running: the runs that a ConfigMap edit queues
		// recover them again.
		for m, state := range stuckStates {
			forceStuck(t, cfg, ns, m, state)
		}
		// plan says what the runs that the edit queues would do with them.
		expectPlanChanges(t, op, []string{
			"stuck release: revision 1 left pending-install: uninstalled (none deployed), then installed",
			"stuck release: revision 4 left pending-upgrade: rolled back to revision 3, then upgraded; revision 4 marked failed",
			"stuck release: revision 4 left pending-rollback: rolled back to revision 3, then upgraded; revision 4 marked failed",
			"stuck release: revision 3 left uninstalling: marked failed, then upgraded"}, "--set", "global.edit=1")
		scenario.PutConfigMap(t, kube, ns, map[string]string{"global": "edit: 1\n"})
		op.waitUntil(t, "the forced stuck releases recovered", func() bool {
			for m := range stuckStates {
				if op.count("cleared stuck helm release", map[string]any{"release": m}) != 2 {
					return false
				}
			}
			return true
		})
		op.waitIdle(t)
		for m, state := range stuckStates {
			checkRecovered(t, op, cfg, ns, m, state, 2)
		}
	})
}
