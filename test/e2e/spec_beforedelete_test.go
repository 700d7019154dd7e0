package e2e_test

import (
	"testing"

	"github.com/addon-actors/addon-operator/test/scenario"
)

// beforeDeleteTree is module alpha with a chart (ConfigMap alpha), a
// beforeDeleteHelm hook watching its ConfigMap (and Secrets named nope,
// which never exist) that records its binding context, and an
// afterDeleteHelm hook; the ConfigMap binding watches namespace ns only (other tests have
// ConfigMaps named alpha). With failOnce the first beforeDeleteHelm run fails.
func beforeDeleteTree(t *testing.T, ns string, failOnce bool) string {
	t.Helper()
	config := `{"configVersion":"v1","beforeDeleteHelm":1,"kubernetes":[` +
		`{"name":"cm","apiVersion":"v1","kind":"ConfigMap","nameSelector":{"matchNames":["alpha"]},"namespace":{"nameSelector":{"matchNames":["` + ns + `"]}},"jqFilter":".metadata.name",` +
		`"executeHookOnEvent":[],"executeHookOnSynchronization":false},` +
		`{"name":"none","apiVersion":"v1","kind":"Secret","nameSelector":{"matchNames":["nope"]},` +
		`"executeHookOnEvent":[],"executeHookOnSynchronization":false}]}`
	body := `record "$(jq -c '[.[] | {binding, hasType: has("type"), snapshots: (.snapshots | map_values(map(.filterResult)))}]' $BINDING_CONTEXT_PATH)" context` + "\n"
	if failOnce {
		body += `if [[ ! -e $RECORD_DIR/failed-once ]]; then touch $RECORD_DIR/failed-once; record before-delete-failed order; exit 1; fi` + "\n"
	}
	body += `record before-delete order`
	return tree(t, map[string]string{
		"modules/values.yaml":                   "alphaEnabled: true\n",
		"modules/001-alpha/Chart.yaml":          "apiVersion: v2\nname: alpha\nversion: 0.1.0\n",
		"modules/001-alpha/templates/cm.yaml":   "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: alpha\ndata: {}\n",
		"modules/001-alpha/hooks/before-delete": hook(config, body),
		"modules/001-alpha/hooks/deleted":       hook(`{"configVersion":"v1","afterDeleteHelm":1}`, `record after-delete order`),
	})
}

// disableAlpha disables alpha in the ConfigMap and waits for a delete that
// succeeded.
func disableAlpha(t *testing.T, op *operator, ns string) {
	t.Helper()
	scenario.PutConfigMap(t, kube, ns, map[string]string{"alphaEnabled": "false"})
	op.waitUntil(t, "alpha deleted", func() bool {
		m := op.modules(t)["alpha"]
		return m.LastRun == "ModuleDelete" && m.LastErr == ""
	})
	if scenario.ConfigMapData(t, kube, ns, "alpha") != nil {
		t.Fatal("alpha's objects still exist")
	}
}

// UPSTREAM.md §3: disabling a module with a release runs its
// beforeDeleteHelm hooks while the release's objects are still there
// (the hook's snapshot holds the ConfigMap; a binding with no objects is
// []; no "type"), then the uninstall, then afterDeleteHelm.
func TestBeforeDeleteHelmRunsBeforeTheUninstall(t *testing.T) {
	ns := kube.Namespace(t)
	root := beforeDeleteTree(t, ns, false)
	op := startSpec(t, root, ns)
	op.waitReady(t)
	if scenario.ConfigMapData(t, kube, ns, "alpha") == nil {
		t.Fatal("alpha not installed")
	}
	disableAlpha(t, op, ns)
	if got := record(t, root, "order"); got != "before-delete\nafter-delete\n" {
		t.Fatalf("hooks after disable: %q", got)
	}
	scenario.JSONEqual(t, "beforeDeleteHelm binding context", record(t, root, "context"),
		`[{"binding":"beforeDeleteHelm","hasType":false,"snapshots":{"cm":["alpha"],"none":[]}}]`)
}

// A failing beforeDeleteHelm hook fails the delete: no uninstall (the
// retry's snapshot still holds the ConfigMap), no afterDeleteHelm; the
// retry runs it again, then uninstalls and runs afterDeleteHelm.
func TestBeforeDeleteHelmFailureIsRetried(t *testing.T) {
	ns := kube.Namespace(t)
	root := beforeDeleteTree(t, ns, true)
	op := startSpec(t, root, ns)
	op.waitReady(t)
	disableAlpha(t, op, ns)
	if got := record(t, root, "order"); got != "before-delete-failed\nbefore-delete\nafter-delete\n" {
		t.Fatalf("hooks after disable: %q", got)
	}
	one := `{"binding":"beforeDeleteHelm","hasType":false,"snapshots":{"cm":["alpha"],"none":[]}}`
	if got := record(t, root, "context"); got != "["+one+"]\n["+one+"]\n" {
		t.Fatalf("contexts of the two runs:\n%s", got)
	}
	metricHas(t, op, `addon_operator_module_delete_errors_total{module="alpha"} 1`)
}
