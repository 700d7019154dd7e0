package e2e_test

import (
	"context"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/addon-actors/addon-operator/test/scenario"
)

// restartModules are three plain modules, NAME-TAG, each a chart of one
// ConfigMap and a beforeHelm hook that patches its values, as the bench's.
func restartModules(tag string, names ...string) map[string]string {
	files := map[string]string{"modules/values.yaml": ""}
	for _, name := range names {
		p, key := "modules/"+name+"-"+tag+"/", name+strings.ToUpper(tag[:1])+tag[1:]
		files[p+"Chart.yaml"] = "apiVersion: v2\nname: " + name + "-" + tag + "\nversion: 0.1.0\n"
		files[p+"templates/cm.yaml"] = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\ndata: {}\n"
		files[p+"hooks/patch"] = hook(`{"configVersion":"v1","beforeHelm":1}`,
			`echo '[{"op":"add","path":"/`+key+`/seen","value":true}]' > "$VALUES_JSON_PATCH_PATH"`)
		files["modules/values.yaml"] += key + "Enabled: true\n"
	}
	return files
}

// TestModuleObjectsRestartWritesNothing: a restart where nothing changed
// writes no Module object: their resourceVersions stay, while a change
// after it (a module disabled) is written.
func TestModuleObjectsRestartWritesNothing(t *testing.T) {
	ns := kube.Namespace(t)
	tag := objectTag(ns)
	names := []string{"a-" + tag, "b-" + tag, "c-" + tag}
	root := tree(t, restartModules(tag, "a", "b", "c"))
	cm := map[string]string{}
	scenario.PutConfigMap(t, kube, ns, cm)
	first := startSpec(t, root, ns)
	first.waitReady(t)
	for _, name := range names {
		waitModule(t, name, "Ready", phaseIs("Ready"))
	}
	first.stop(t)
	before := objectVersions(t, ns)

	second := startSpec(t, root, ns)
	second.waitReady(t)
	cm["c"+strings.ToUpper(tag[:1])+tag[1:]+"Enabled"] = "false"
	scenario.PutConfigMap(t, kube, ns, cm)
	waitModule(t, names[2], "Disabled", phaseIs("Disabled"))
	after := objectVersions(t, ns)
	for _, name := range names[:2] {
		if before[name].version == "" || before[name].version != after[name].version {
			t.Errorf("Module %s: resourceVersion %s before the restart, %s after: written\nbefore %v\nafter  %v",
				name, before[name].version, after[name].version, before[name].status, after[name].status)
		}
	}
	if before[names[2]].version == after[names[2]].version {
		t.Errorf("Module %s: disabled after the restart, not written", names[2])
	}
}

type objectVersion struct {
	version string
	status  any
}

// objectVersions maps the Module objects of the operator of ns to their
// resourceVersions (and status, for the failure's message).
func objectVersions(t *testing.T, ns string) map[string]objectVersion {
	t.Helper()
	list, err := moduleResource(t).List(context.Background(), metav1.ListOptions{LabelSelector: "addon-operator.io/namespace=" + ns})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]objectVersion{}
	for _, item := range list.Items {
		out[item.GetName()] = objectVersion{item.GetResourceVersion(), item.Object["status"]}
	}
	return out
}
