package chartrun_test

import (
	"context"
	"strings"
	"testing"

	"helm.sh/helm/v3/pkg/release"

	"github.com/addon-actors/addon-operator/chartrun"
	"github.com/addon-actors/addon-operator/test/scenario"
)

func immutableValues(value string, extra bool) map[string]any {
	return map[string]any{"demo": map[string]any{"value": value, "extra": extra}}
}

// A failed upgrade rolled back: the objects are revision 1's again (the
// one the failed revision 2 half wrote is gone), and revision 3, a
// rollback, is deployed; a second Remediate finds nothing to do.
func TestRemediateRollsBackAFailedUpgrade(t *testing.T) {
	f := newFixture(t, 0)
	f.dir = writeModule(t, scenario.ImmutableChart("demo"))
	ctx := context.Background()
	req := chartrun.Request{Release: "demo", ChartDir: f.dir, Values: immutableValues("a", false)}
	if _, err := f.r.Upgrade(ctx, req); err != nil {
		t.Fatal(err)
	}
	req.Values = immutableValues("b", true)
	if _, err := f.r.Upgrade(ctx, req); err == nil || !strings.Contains(err.Error(), "immutable") {
		t.Fatalf("upgrade of an immutable ConfigMap: %v", err)
	}
	if _, extra := f.value(t, "demo-extra"); !extra {
		t.Fatal("the failed upgrade wrote nothing: the test proves nothing")
	}
	got, err := f.r.Remediate(ctx, chartrun.Remedy{Release: "demo", Rollback: true, Uninstall: true})
	if err != nil || got.Action != chartrun.RemedyRolledBack || got.Revision != 1 {
		t.Fatalf("Remediate = %+v, %v; want rolled back to revision 1", got, err)
	}
	if v, _ := f.value(t, "demo-0"); v != "a" {
		t.Errorf("demo-0 = %q after the rollback; want a", v)
	}
	if _, extra := f.value(t, "demo-extra"); extra {
		t.Error("demo-extra of the failed revision is still there")
	}
	cfg := helmConfig(t, f.ns)
	if last := scenario.LastRelease(t, cfg, "demo"); last.Version != 3 || last.Info.Status != release.StatusDeployed {
		t.Errorf("last revision %d %s; want 3 deployed", last.Version, last.Info.Status)
	}
	again, err := f.r.Remediate(ctx, chartrun.Remedy{Release: "demo", Rollback: true})
	if err != nil || again.Action != chartrun.RemedyNone {
		t.Errorf("second Remediate = %+v, %v; want none", again, err)
	}
}

// A first install that failed is uninstalled when asked (its half-written
// objects go with it), and kept when not.
func TestRemediateUninstallsAFailedFirstInstall(t *testing.T) {
	f := newFixture(t, 0)
	f.dir = writeModule(t, map[string]string{
		"Chart.yaml": "apiVersion: v2\nname: demo\nversion: 0.1.0\n",
		"templates/a.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: demo-0\ndata:\n  value: a\n" +
			"---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: Not_Valid\n",
	})
	ctx := context.Background()
	if _, err := f.r.Upgrade(ctx, chartrun.Request{Release: "demo", ChartDir: f.dir}); err == nil {
		t.Fatal("install of an invalid ConfigMap succeeded")
	}
	kept, err := f.r.Remediate(ctx, chartrun.Remedy{Release: "demo", Rollback: true})
	if err != nil || kept.Action != chartrun.RemedyNone {
		t.Fatalf("Remediate without Uninstall = %+v, %v; want none", kept, err)
	}
	if exists, _ := f.r.Exists(ctx, "demo"); !exists {
		t.Fatal("the failed install left no revision: the test proves nothing")
	}
	got, err := f.r.Remediate(ctx, chartrun.Remedy{Release: "demo", Uninstall: true})
	if err != nil || got.Action != chartrun.RemedyUninstalled {
		t.Fatalf("Remediate = %+v, %v; want uninstalled", got, err)
	}
	if exists, err := f.r.Exists(ctx, "demo"); exists || err != nil {
		t.Errorf("release still there after the uninstall (%v)", err)
	}
	if _, ok := f.value(t, "demo-0"); ok {
		t.Error("demo-0 of the failed install is still there")
	}
}
