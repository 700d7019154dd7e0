package e2e_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"github.com/addon-actors/addon-operator/chartrun/crds"
)

const widgetCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.GROUP
spec:
  group: GROUP
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
`

// recordContexts records each binding context as "TYPE WATCHEVENT NAME
// OBJECTS".
const recordContexts = `jq -r '.[] | "\(.type) \(.watchEvent // "-") \(.object.metadata.name // "-") \((.objects // []) | length)"' $BINDING_CONTEXT_PATH > $RECORD_DIR.tmp
while read -r line; do record "$line" widgets; done < $RECORD_DIR.tmp`

// A module's crds/ are applied before its first run (a doc- file is not):
// its kubernetes hook watches its own kind from the start, the
// Synchronization run on the first converge sees it served, and a custom
// resource created afterwards reaches the hook as an Event.
func TestModuleCRDsBeforeTheFirstRun(t *testing.T) {
	ns := kube.Namespace(t)
	group := ns + ".crds.example.com"
	binding := `{"configVersion":"v1","kubernetes":[{"name":"widgets","apiVersion":"` + group +
		`/v1","kind":"Widget","namespace":{"nameSelector":{"matchNames":["` + ns + `"]}}}]}`
	root := tree(t, map[string]string{
		// Its binding fills the operator's discovery cache before the CRD
		// exists: the kind resolves only if the cache is reset after it.
		"global-hooks/configmaps": hook(`{"configVersion":"v1","kubernetes":[{"name":"cms","apiVersion":"v1","kind":"ConfigMap",`+
			`"namespace":{"nameSelector":{"matchNames":["`+ns+`"]}}}]}`, `true`),
		"modules/values.yaml":                       "widgetsEnabled: true\n",
		"modules/001-widgets/crds/widgets.yaml":     strings.ReplaceAll(widgetCRD, "GROUP", group),
		"modules/001-widgets/crds/doc-example.yaml": "apiVersion: " + group + "/v1\nkind: Widget\nmetadata:\n  name: example\n",
		"modules/001-widgets/hooks/watch":           hook(binding, recordContexts),
	})
	client := dynamic.NewForConfigOrDie(kube.Config(t))
	t.Cleanup(func() {
		_ = client.Resource(crds.Resource).Delete(context.Background(), "widgets."+group, metav1.DeleteOptions{})
	})
	op := startSpec(t, root, ns)
	op.waitReady(t)
	if got := record(t, root, "widgets"); got != "Synchronization - - 0\n" {
		t.Fatalf("first run's contexts %q, want one Synchronization with no objects", got)
	}
	// One task: the first run did not fail on a kind not yet served.
	if m := op.modules(t)["widgets"]; !m.Enabled || m.LastErr != "" || m.Tasks != 1 {
		t.Fatalf("module after the first converge: %+v, want enabled after one task", m)
	}
	crd, err := client.Resource(crds.Resource).Get(context.Background(), "widgets."+group, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if crd.GetLabels()["heritage"] != "addon-operator" {
		t.Errorf("CRD labels %v, want heritage=addon-operator", crd.GetLabels())
	}
	widget := &unstructured.Unstructured{Object: map[string]any{"apiVersion": group + "/v1", "kind": "Widget",
		"metadata": map[string]any{"name": "w1"}}}
	gvr := schema.GroupVersionResource{Group: group, Version: "v1", Resource: "widgets"}
	if _, err := client.Resource(gvr).Namespace(ns).Create(context.Background(), widget, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	op.waitUntil(t, "the Widget's event recorded", func() bool {
		return strings.Contains(record(t, root, "widgets"), "Event Added w1")
	})
}

// A crds/ file that is not a CRD leaves its module out (module_failed, an
// error naming the file and document); the other modules run.
func TestModuleCRDsBadFile(t *testing.T) {
	ns := kube.Namespace(t)
	root := tree(t, map[string]string{
		"modules/values.yaml":              "badEnabled: true\ngoodEnabled: true\n",
		"modules/001-bad/crds/things.yaml": "---\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n",
		"modules/001-bad/hooks/start":      hook(`{"configVersion":"v1","onStartup":1}`, `record bad order`),
		"modules/002-good/hooks/start":     hook(`{"configVersion":"v1","onStartup":1}`, `record good order`),
	})
	op := startSpec(t, root, ns)
	op.waitReady(t)
	if got := record(t, root, "order"); got != "good\n" {
		t.Fatalf("onStartup ran in %q, want good only", got)
	}
	bad := op.modules(t)["bad"]
	// The leading "---" begins the first (empty) document.
	file := filepath.Join("001-bad", "crds", "things.yaml")
	if !strings.Contains(bad.LastErr, file+" document 2") || !strings.Contains(bad.LastErr, "ConfigMap") {
		t.Errorf("module bad: %+v; want an error naming %s document 2", bad, file)
	}
	if _, body := op.get(t, "/metrics"); !strings.Contains(body, `addon_operator_module_failed{module="bad"} 1`) {
		t.Errorf("/metrics without module_failed 1 for bad")
	}
	if _, err := os.Stat(filepath.Join(root, "record", "bad")); err == nil {
		t.Error("the bad module ran a hook")
	}
}
