package e2e_test

import (
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/test/scenario"
)

// exampleModule is a module of docs/MODULES.md's worked example: a chart of the
// given version with one ConfigMap named after it, and a beforeHelm hook
// that records its run.
func exampleModule(files map[string]string, dir, version string) {
	name := dir[4:]
	files["modules/"+dir+"/Chart.yaml"] = "apiVersion: v2\nname: " + name + "\nversion: " + version + "\n"
	files["modules/"+dir+"/templates/cm.yaml"] = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\ndata: {}\n"
	files["modules/"+dir+"/hooks/before"] = hook(`{"configVersion":"v1","beforeHelm":1}`, `record `+name+` order`)
}

// docs/MODULES.md's worked example of module.yaml: three modules, one optional
// requirement. All enabled, app's optional requirement on metrics is
// checked and metrics' version does not satisfy it; metrics disabled, the
// requirement is skipped and app runs after ingress; ingress disabled too,
// app's requirement is unmet and its release is deleted.
func TestRequirementsReadmeExample(t *testing.T) {
	files := map[string]string{"modules/values.yaml": "ingressEnabled: true\nappEnabled: true\nmetricsEnabled: true\n",
		"modules/020-app/module.yaml": "requirements:\n  modules:\n    ingress: \">= 1.2.0\"\n" +
			"    metrics: \">= 2.0.0 !optional\"\n"}
	exampleModule(files, "010-ingress", "1.4.0")
	exampleModule(files, "020-app", "0.1.0")
	exampleModule(files, "030-metrics", "1.9.0")
	root := tree(t, files)
	ns := kube.Namespace(t)
	op := startSpec(t, root, ns)
	op.waitReady(t)
	op.expectEnabled(t, "ingress", "metrics")
	if why := op.cli(t, "module", "why", "app"); !strings.Contains(why, "dependency 'metrics' not meet the version constraint: "+
		"the '1.9.0' version does not satisfy the '>= 2.0.0' constraint") {
		t.Fatalf("module why app:\n%s", why)
	}

	scenario.PutConfigMap(t, kube, ns, map[string]string{"metricsEnabled": "false"})
	op.waitUntil(t, "app installed and metrics deleted", func() bool {
		return scenario.ConfigMapData(t, kube, ns, "app") != nil && scenario.ConfigMapData(t, kube, ns, "metrics") == nil
	})
	order := strings.Fields(record(t, root, "order"))
	if app, ingress := lastIndex(order, "app"), lastIndex(order, "ingress"); app < ingress {
		t.Fatalf("app ran before ingress: %v", order)
	}

	scenario.PutConfigMap(t, kube, ns, map[string]string{"metricsEnabled": "false", "ingressEnabled": "false"})
	op.waitUntil(t, "app deleted", func() bool { return scenario.ConfigMapData(t, kube, ns, "app") == nil })
	if why := op.cli(t, "module", "why", "app"); !strings.Contains(why, "dependency 'ingress' is disabled") {
		t.Fatalf("module why app:\n%s", why)
	}
}

func lastIndex(list []string, s string) int {
	for i := len(list) - 1; i >= 0; i-- {
		if list[i] == s {
			return i
		}
	}
	return -1
}
