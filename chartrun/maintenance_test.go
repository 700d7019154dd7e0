package chartrun_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/addon-actors/addon-operator/chartrun"
	"github.com/addon-actors/addon-operator/test/scenario"
)

// UPSTREAM.md §7: the first run in maintenance mode writes the release once
// more, its objects labelled maintenance.deckhouse.io/no-resource-reconciliation
// and the release labelled "true"; the next runs leave it as it is (a new
// value, a deleted object, even a template that no longer renders); the
// first run out of maintenance writes it again without the objects' label,
// the release labelled "false".
func TestMaintenanceLabelsOnceThenKeepsTheRelease(t *testing.T) {
	f := newFixture(t, 2)
	cfg := helmConfig(t, f.ns)
	f.upgrade(t, "a")
	wantMaintenanceLabels(t, f, "false", false)

	res := f.run(t, "a", true)
	if res.Action != chartrun.Upgraded || res.Revision != 2 {
		t.Fatalf("first run in maintenance: %+v, want upgraded to revision 2", res)
	}
	wantMaintenanceLabels(t, f, "true", true)

	f.deleteObject(t, "demo-0")
	res = f.run(t, "b", true)
	if res.Action != chartrun.Skipped || res.Upgraded || res.Revision != 2 || !strings.Contains(res.Reason, "maintenance mode") {
		t.Fatalf("run in maintenance: %+v, want skipped at revision 2 for maintenance mode", res)
	}
	if _, ok := f.value(t, "demo-0"); ok {
		t.Fatal("a deleted object was restored in maintenance mode")
	}
	if v, _ := f.value(t, "demo-1"); v != "a" {
		t.Fatalf("demo-1 value %q in maintenance mode, want a", v)
	}
	if err := os.WriteFile(filepath.Join(f.dir, "templates/broken.yaml"), []byte("{{ .Values.nope.nope }}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if res = f.run(t, "b", true); res.Action != chartrun.Skipped {
		t.Fatalf("run in maintenance with a broken template: %+v, want skipped", res)
	}
	if err := os.Remove(filepath.Join(f.dir, "templates/broken.yaml")); err != nil {
		t.Fatal(err)
	}

	res = f.run(t, "b", false)
	if res.Action != chartrun.Upgraded || res.Revision != 3 {
		t.Fatalf("first run out of maintenance: %+v, want upgraded to revision 3", res)
	}
	wantMaintenanceLabels(t, f, "false", false)
	if v, ok := f.value(t, "demo-0"); !ok || v != "b" {
		t.Fatalf("demo-0 after maintenance: %q (exists %t), want b", v, ok)
	}
	if last := scenario.LastRelease(t, cfg, "demo"); last.Version != 3 {
		t.Fatalf("latest revision %d, want 3", last.Version)
	}
}

// A module that is installed in maintenance mode is installed labelled.
func TestMaintenanceInstallIsLabelled(t *testing.T) {
	f := newFixture(t, 1)
	if res := f.run(t, "a", true); res.Action != chartrun.Installed {
		t.Fatalf("install in maintenance: %+v", res)
	}
	wantMaintenanceLabels(t, f, "true", true)
	if res := f.run(t, "b", true); res.Action != chartrun.Skipped || res.Revision != 1 {
		t.Fatalf("next run in maintenance: %+v, want skipped at revision 1", res)
	}
}

func (f fixture) run(t *testing.T, value string, maintenance bool) chartrun.Result {
	t.Helper()
	res, err := f.r.Upgrade(context.Background(), chartrun.Request{Release: "demo", ChartDir: f.dir,
		Values: demoValues(value), Maintenance: maintenance})
	if err != nil {
		t.Fatalf("run with %q (maintenance %t): %v", value, maintenance, err)
	}
	return res
}

func (f fixture) deleteObject(t *testing.T, name string) {
	t.Helper()
	if err := f.client.CoreV1().ConfigMaps(f.ns).Delete(context.Background(), name, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
}

// wantMaintenanceLabels checks the release's maintenance label and whether
// each of its objects has the objects' one.
func wantMaintenanceLabels(t *testing.T, f fixture, release string, objects bool) {
	t.Helper()
	last := scenario.LastRelease(t, helmConfig(t, f.ns), "demo")
	if got := last.Labels[chartrun.LabelMaintenance]; got != release {
		t.Fatalf("revision %d labelled %s=%q, want %q", last.Version, chartrun.LabelMaintenance, got, release)
	}
	list, err := f.client.CoreV1().ConfigMaps(f.ns).List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, cm := range list.Items {
		if !strings.HasPrefix(cm.Name, "demo-") {
			continue
		}
		if v, ok := cm.Labels[chartrun.LabelMaintenance]; ok != objects || v != "" {
			t.Fatalf("object %s labels %v: maintenance label present %t, want %t (empty)", cm.Name, cm.Labels, ok, objects)
		}
		if !strings.Contains(last.Manifest, "name: "+cm.Name) {
			t.Fatalf("object %s is not in the manifest of revision %d", cm.Name, last.Version)
		}
	}
}
