package chartrun_test

import (
	"context"
	"reflect"
	"testing"

	"helm.sh/helm/v3/pkg/release"

	"github.com/addon-actors/addon-operator/chartrun"
	"github.com/addon-actors/addon-operator/test/scenario"
)

// A release left uninstalling (an uninstall killed after it deleted some
// objects) whose module is enabled is taken as failed and upgraded: its
// revision is marked failed, the next one deployed with every object back,
// never a reinstall; the recovery is logged with the revision and state
// found, and returned to be counted.
func TestUninstallingReleaseOfEnabledModuleIsUpgraded(t *testing.T) {
	f, logs := newLoggedFixture(t, 2)
	f.upgrade(t, "a")
	f.upgrade(t, "b")
	cfg := helmConfig(t, f.ns)
	scenario.SetReleaseStatus(t, cfg, "demo", 2, release.StatusUninstalling)
	f.deleteObject(t, "demo-0") // the killed uninstall got that far
	res := f.upgrade(t, "c")
	if res.Action != chartrun.Upgraded || res.Revision != 3 {
		t.Fatalf("recovery: %+v, want upgraded to revision 3", res)
	}
	for _, name := range []string{"demo-0", "demo-1"} {
		if v, _ := f.value(t, name); v != "c" {
			t.Fatalf("after recovery %s = %q, want c", name, v)
		}
	}
	// helm upgrades from the revision marked failed, so it supersedes it.
	want := map[int]release.Status{1: release.StatusSuperseded, 2: release.StatusSuperseded, 3: release.StatusDeployed}
	if got := checkNoPending(t, cfg, "demo"); !reflect.DeepEqual(got, want) {
		t.Fatalf("history %v, want %v", got, want)
	}
	if want := []chartrun.Destructive{{Action: chartrun.ActionClear, Reason: "uninstalling"}}; !reflect.DeepEqual(res.Destructive, want) {
		t.Fatalf("destructive %+v, want %+v", res.Destructive, want)
	}
	if got := logs.warnings(chartrun.ClearedMessage); len(got) != 1 || got[0]["status"] != "uninstalling" || got[0]["revision"] != "2" {
		t.Fatalf("recovery records %v, want one of revision 2 uninstalling", got)
	}
	if res := f.upgrade(t, "c"); res.Action != chartrun.Skipped {
		t.Fatalf("run after recovery: %+v, want skipped", res)
	}
}

// A disabled module's release left in any stuck state is finished by
// uninstalling it again: no revision and no object is left, and the
// recovery is logged with the revision and state found and returned.
func TestStuckReleaseOfDisabledModuleIsUninstalled(t *testing.T) {
	for _, state := range []release.Status{release.StatusPendingInstall, release.StatusPendingUpgrade,
		release.StatusPendingRollback, release.StatusUninstalling} {
		t.Run(string(state), func(t *testing.T) {
			f, logs := newLoggedFixture(t, 2)
			f.upgrade(t, "a")
			cfg := helmConfig(t, f.ns)
			scenario.SetReleaseStatus(t, cfg, "demo", 1, state)
			gone, err := f.r.Uninstall(context.Background(), "demo")
			if err != nil || gone.Revision != 1 || gone.Status != string(state) {
				t.Fatalf("uninstall: %+v, %v", gone, err)
			}
			if want := []chartrun.Destructive{{Action: chartrun.ActionClear, Reason: string(state)}}; !reflect.DeepEqual(gone.Destructive, want) {
				t.Fatalf("destructive %+v, want %+v", gone.Destructive, want)
			}
			for _, name := range []string{"demo-0", "demo-1"} {
				if _, ok := f.value(t, name); ok {
					t.Fatalf("%s is left", name)
				}
			}
			if h, err := cfg.Releases.History("demo"); len(h) != 0 {
				t.Fatalf("history after the uninstall: %d revisions (%v)", len(h), err)
			}
			if got := logs.warnings(chartrun.ClearedMessage); len(got) != 1 || got[0]["status"] != string(state) || got[0]["revision"] != "1" {
				t.Fatalf("recovery records %v, want one of revision 1 %s", got, state)
			}
		})
	}
}

// A stuck release that is no module's (another name, not labelled) is
// never touched by the runs of a module: Names reports it in Stuck (as it
// does the module's own), leaves it out of Owned, and it stays as it was;
// the ignored release is not even reported.
func TestForeignStuckReleaseIsLeftAlone(t *testing.T) {
	f, logs := newLoggedFixture(t, 1)
	cfg := helmConfig(t, f.ns)
	installPlain(t, cfg, f.ns, "theirs", nil)
	installPlain(t, cfg, f.ns, "operator", nil)
	scenario.SetReleaseStatus(t, cfg, "theirs", 1, release.StatusPendingUpgrade)
	scenario.SetReleaseStatus(t, cfg, "operator", 1, release.StatusUninstalling)
	f.upgrade(t, "a")
	scenario.SetReleaseStatus(t, cfg, "demo", 1, release.StatusPendingInstall)
	names, err := f.r.Names(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"theirs": "revision 1 left pending-upgrade", "demo": "revision 1 left pending-install"}
	if !reflect.DeepEqual(names.Stuck, want) || !reflect.DeepEqual(names.Owned, []string{"demo"}) {
		t.Fatalf("names %+v, want stuck %v and only demo owned", names, want)
	}
	f.upgrade(t, "b")
	if err := f.r.Delete(context.Background(), "demo"); err != nil {
		t.Fatal(err)
	}
	for name, state := range map[string]release.Status{"theirs": release.StatusPendingUpgrade, "operator": release.StatusUninstalling} {
		if got := scenario.LastRelease(t, cfg, name); got.Version != 1 || got.Info.Status != state {
			t.Fatalf("%s: revision %d %s, want 1 %s untouched", name, got.Version, got.Info.Status, state)
		}
	}
	for _, r := range logs.warnings(chartrun.ClearedMessage) {
		if r["release"] != "demo" {
			t.Fatalf("a release that is no module's was cleared: %v", r)
		}
	}
}
