package e2e_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/test/scenario"
)

// Module dirs are read again at every discovery: after the converge that
// follows a change of the ConfigMap's global section, or the one the
// periodic look at the dirs starts, a module whose dir appeared runs
// (onStartup, helm) and one whose dir was removed has its actor stopped
// and its release purged without afterDeleteHelm.
func TestModuleDirsAppearingAndDisappearing(t *testing.T) {
	t.Run("converge", func(t *testing.T) {
		dirsChange(t, "0", func(ns string) { scenario.PutConfigMap(t, kube, ns, map[string]string{"global": "step: 2\n"}) })
	})
	t.Run("periodic look", func(t *testing.T) { dirsChange(t, "300ms", func(string) {}) })
}

func dirsChange(t *testing.T, interval string, trigger func(ns string)) {
	chart := func(name string) map[string]string {
		return map[string]string{
			"Chart.yaml":        "apiVersion: v2\nname: " + name + "\nversion: 0.1.0\n",
			"templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\ndata: {}\n",
			"hooks/start":       hook(`{"configVersion":"v1","onStartup":1}`, `record `+name+`-startup order`),
			"hooks/deleted":     hook(`{"configVersion":"v1","afterDeleteHelm":1}`, `record `+name+`-afterDeleteHelm order`),
		}
	}
	files := map[string]string{"modules/values.yaml": "alphaEnabled: true\nbetaEnabled: true\n"}
	for name, content := range chart("alpha") {
		files["modules/001-alpha/"+name] = content
	}
	root, ns := tree(t, files), kube.Namespace(t)
	scenario.PutConfigMap(t, kube, ns, map[string]string{"global": "step: 1\n"})
	op := startSpec(t, root, ns, "ADDON_OPERATOR_MODULES_CHECK_INTERVAL="+interval)
	op.waitReady(t)
	op.waitIdle(t)
	if scenario.ConfigMapData(t, kube, ns, "alpha") == nil {
		t.Fatal("alpha not installed")
	}

	if err := os.RemoveAll(filepath.Join(root, "modules", "001-alpha")); err != nil {
		t.Fatal(err)
	}
	beta := map[string]string{}
	for name, content := range chart("beta") {
		beta["modules/002-beta/"+name] = content
	}
	writeFiles(t, root, beta)
	trigger(ns)
	op.waitUntil(t, "beta installed and alpha purged", func() bool {
		return scenario.ConfigMapData(t, kube, ns, "beta") != nil && scenario.ConfigMapData(t, kube, ns, "alpha") == nil
	})
	op.expectEnabled(t, "beta")
	if _, ok := op.modules(t)["alpha"]; ok {
		t.Fatal("module list still shows alpha")
	}
	// mm_module_info is rebuilt by the discovery that removed alpha.
	_, metrics := op.get(t, "/metrics")
	if want := `addon_operator_mm_module_info{critical="true",enabled="true",module="beta"} 1`; !strings.Contains(metrics, want) {
		t.Fatalf("/metrics lacks %s", want)
	}
	for _, line := range strings.Split(metrics, "\n") {
		if strings.HasPrefix(line, "addon_operator_mm_module_info{") && strings.Contains(line, `module="alpha"`) {
			t.Fatalf("/metrics still has %s for the removed alpha", line)
		}
	}
	if got, want := record(t, root, "order"), "alpha-startup\nbeta-startup\n"; got != want {
		t.Fatalf("hooks ran\n%s\nwant\n%s", got, want)
	}
	if n := op.count("purged release without a module dir", map[string]any{"release": "alpha"}); n != 1 {
		t.Fatalf("alpha purged %d times\n%s", n, op.logText())
	}
	if n := op.count("modules dirs changed; converging", nil); (interval == "0") != (n == 0) {
		t.Fatalf("%d converges for changed dirs with check interval %s", n, interval)
	}
}
