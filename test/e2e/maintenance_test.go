package e2e_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/addon-actors/addon-operator/actors/module"
	"github.com/addon-actors/addon-operator/chartrun"
	"github.com/addon-actors/addon-operator/test/scenario"
)

const maintenanceSeries = `addon_operator_mm_module_maintenance{module="maint",state="NoResourceReconciliation"} 1`

// UPSTREAM.md §7: "maintMaintenance: NoResourceReconciliation" keeps the
// module's hooks running; its first run in maintenance writes the release
// once more, its objects labelled maintenance.deckhouse.io/no-resource-reconciliation
// and the release labelled "true", as the original does; after that neither
// helm nor the healing of absent objects touches it. Removing the key
// upgrades the release without the objects' label, labelled "false", and
// restores what was deleted.
func TestMaintenanceModeStopsHelmUntilRemoved(t *testing.T) {
	root := tree(t, map[string]string{
		"modules/values.yaml":                 "maintEnabled: true\n",
		"modules/001-maint/Chart.yaml":        "apiVersion: v2\nname: maint\nversion: 0.1.0\n",
		"modules/001-maint/templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: maint-cm\ndata:\n  text: {{ .Values.maint.text | quote }}\n",
		"modules/001-maint/hooks/before":      hook(`{"configVersion":"v1","beforeHelm":1}`, `record "$(jq -r .maint.text $VALUES_PATH)" before`),
	})
	ns := kube.Namespace(t)
	scenario.PutConfigMap(t, kube, ns, map[string]string{"maint": "text: one\n"})
	op := startSpec(t, root, ns, "ADDON_OPERATOR_RESOURCES_CHECK_INTERVAL=1s")
	op.waitReady(t)
	op.waitIdle(t)
	first := releaseRevisions(t, ns)["maint"]
	wantObject(t, ns, "one")
	wantMaintenanceLabels(t, ns, "false", false)

	scenario.PutConfigMap(t, kube, ns, map[string]string{"maint": "text: one\n", "maintMaintenance": "NoResourceReconciliation"})
	op.waitUntil(t, "the release written labelled", func() bool { return releaseRevisions(t, ns)["maint"] == first+1 })
	op.waitIdle(t)
	wantMaintenanceLabels(t, ns, "true", true)
	if m := op.maintenanceOf(t); m != "NoResourceReconciliation" {
		t.Fatalf("module list: maintenance %q", m)
	}
	if text := op.cli(t, "module", "list"); !strings.Contains(text, "MAINTENANCE") || !strings.Contains(text, "NoResourceReconciliation") {
		t.Fatalf("module list:\n%s", text)
	}
	if _, body := op.get(t, "/metrics"); !strings.Contains(body, maintenanceSeries) {
		t.Fatalf("/metrics lacks %s", maintenanceSeries)
	}
	out, code := runPlan(t, op, "--set", "maint.text=three")
	if code != 2 || !strings.Contains(out, "in maintenance (maintMaintenance): the release is left as it is") ||
		strings.Contains(out, "ConfigMap/maint-cm") {
		t.Fatalf("plan in maintenance: exit %d, want 2, the release left as it is and no object diff:\n%s", code, out)
	}

	deleteObject(t, ns, "maint-cm")
	scenario.PutConfigMap(t, kube, ns, map[string]string{"maint": "text: two\n", "maintMaintenance": "noresourcereconciliation"})
	op.waitUntil(t, "the hook's run with text two", func() bool {
		return strings.HasSuffix(record(t, root, "before"), "two\n") && op.count(module.HelmSkippedMessage, nil) == 1
	})
	if rev := releaseRevisions(t, ns)["maint"]; rev != first+1 {
		t.Fatalf("release upgraded in maintenance: revision %d, want %d", rev, first+1)
	}
	if data := scenario.ConfigMapData(t, kube, ns, "maint-cm"); data != nil {
		t.Fatalf("deleted object restored in maintenance: %v", data)
	}

	scenario.PutConfigMap(t, kube, ns, map[string]string{"maint": "text: two\n"})
	op.waitUntil(t, "the release reconciled", func() bool { return scenario.ConfigMapData(t, kube, ns, "maint-cm") != nil })
	wantObject(t, ns, "two")
	wantMaintenanceLabels(t, ns, "false", false)
	if rev := releaseRevisions(t, ns)["maint"]; rev <= first+1 {
		t.Fatalf("release not upgraded after maintenance: revision %d, was %d", rev, first+1)
	}
	if m := op.maintenanceOf(t); m != "" {
		t.Fatalf("module list after maintenance: %q", m)
	}
	if _, body := op.get(t, "/metrics"); strings.Contains(body, "mm_module_maintenance{") {
		t.Fatalf("/metrics still has the maintenance series")
	}
	if n := op.count(module.HelmSkippedMessage, nil); n != 1 {
		t.Fatalf("helm skipped %d times, want 1", n)
	}
}

// wantMaintenanceLabels checks release maint's maintenance label and
// whether maint-cm has the objects' one.
func wantMaintenanceLabels(t *testing.T, ns, release string, object bool) {
	t.Helper()
	last := scenario.LastRelease(t, plainHelm(t, ns), "maint")
	if got := last.Labels[chartrun.LabelMaintenance]; got != release {
		t.Fatalf("revision %d labelled %s=%q, want %q", last.Version, chartrun.LabelMaintenance, got, release)
	}
	cm, err := kube.Client(t).CoreV1().ConfigMaps(ns).Get(context.Background(), "maint-cm", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := cm.Labels[chartrun.LabelMaintenance]; ok != object {
		t.Fatalf("maint-cm labels %v: maintenance label present %t, want %t", cm.Labels, ok, object)
	}
}

// An invalid maintenance value is an invalid ConfigMap: it is rejected
// with the key named, and the last good configuration stays in force.
func TestMaintenanceInvalidValueKeepsTheLastGoodConfig(t *testing.T) {
	root := tree(t, map[string]string{
		"modules/values.yaml":            "maintEnabled: true\n",
		"modules/001-maint/hooks/before": hook(`{"configVersion":"v1","beforeHelm":1}`, `record "$(jq -r .maint.text $VALUES_PATH)" before`),
	})
	ns := kube.Namespace(t)
	scenario.PutConfigMap(t, kube, ns, map[string]string{"maint": "text: one\n"})
	op := startSpec(t, root, ns)
	op.waitReady(t)
	scenario.PutConfigMap(t, kube, ns, map[string]string{"maint": "text: two\n", "maintMaintenance": "Always"})
	rec := op.waitRecord(t, "ConfigMap is invalid; keeping the last good configuration", nil)
	if err, _ := rec["err"].(string); !strings.Contains(err, `"maintMaintenance"`) {
		t.Fatalf("rejection does not name the key: %v", rec)
	}
	if m := op.maintenanceOf(t); m != "" {
		t.Fatalf("maintenance %q from a rejected ConfigMap", m)
	}
	if got := record(t, root, "before"); got != "one\n" {
		t.Fatalf("hook saw %q: the rejected section was applied", got)
	}
}

// maintenanceOf is module maint's maintenance in `module list -o json`.
func (op *operator) maintenanceOf(t *testing.T) string {
	t.Helper()
	var list []struct {
		Name        string `json:"name"`
		Maintenance string `json:"maintenance"`
	}
	if err := json.Unmarshal([]byte(op.cli(t, "module", "list", "-o", "json")), &list); err != nil {
		t.Fatalf("module list: %v", err)
	}
	for _, m := range list {
		if m.Name == "maint" {
			return m.Maintenance
		}
	}
	t.Fatal("module list has no maint")
	return ""
}

func wantObject(t *testing.T, ns, text string) {
	t.Helper()
	if got := scenario.ConfigMapData(t, kube, ns, "maint-cm")["text"]; got != text {
		t.Fatalf("maint-cm text %q, want %q", got, text)
	}
}

func deleteObject(t *testing.T, ns, name string) {
	t.Helper()
	err := kube.Client(t).CoreV1().ConfigMaps(ns).Delete(context.Background(), name, metav1.DeleteOptions{})
	if err != nil {
		t.Fatal(err)
	}
}
