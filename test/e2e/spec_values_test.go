package e2e_test

import (
	"context"
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/chartrun"
	"github.com/addon-actors/addon-operator/test/scenario"
)

// spec/VALUES.md's example: values.yaml files and the ConfigMap merge into
// the hook's files, the hook's config patch lands in the ConfigMap and is in
// the next run's files, and the chart renders replicas: 200.
func TestSpecValuesExample(t *testing.T) {
	hookBody := `jq -c . $CONFIG_VALUES_PATH >> $RECORD_DIR/config; jq -c '.global |= del(.enabledModules)' $VALUES_PATH >> $RECORD_DIR/values
cat > $CONFIG_VALUES_JSON_PATCH_PATH <<EOF
  [{"op":"add", "path":"/someModule/param3", "value":"newValue"}]
EOF`
	root := tree(t, map[string]string{
		"modules/values.yaml":                      "global:\n  param1: 100\n  param2: \"Yes\"\nsomeModuleEnabled: true\n",
		"modules/01-some-module/values.yaml":       "someModule:\n  param1: \"String\"\n",
		"modules/01-some-module/Chart.yaml":        "apiVersion: v2\nname: some-module\nversion: 0.1.0\n",
		"modules/01-some-module/templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: rendered\ndata:\n  text: \"replicas: {{ .Values.global.param1 }}\"\n",
		"modules/01-some-module/hooks/hook.sh":     hook(`{"configVersion":"v1","beforeHelm":1}`, "mkdir -p $RECORD_DIR\n"+hookBody),
	})
	ns := kube.Namespace(t)
	scenario.PutConfigMap(t, kube, ns, map[string]string{"global": "param1: 200\n", "someModule": "param1: \"Long string\"\nparam2: \"FOO\"\n"})
	op := startSpec(t, root, ns)
	op.waitReady(t)

	configs := strings.Split(strings.TrimSpace(record(t, root, "config")), "\n")
	scenario.JSONEqual(t, "first $CONFIG_VALUES_PATH", configs[0],
		`{"global":{"param1":200},"someModule":{"param1":"Long string","param2":"FOO"}}`)
	scenario.JSONEqual(t, "first $VALUES_PATH", strings.Split(record(t, root, "values"), "\n")[0],
		`{"global":{"param1":200,"param2":"Yes"},"someModule":{"param1":"Long string","param2":"FOO"}}`)
	if got := scenario.ConfigMapData(t, kube, ns, "addon-operator")["someModule"]; !strings.Contains(got, "param3: newValue") {
		t.Fatalf("config patch did not land in the ConfigMap: %q", got)
	}
	if got := scenario.ConfigMapData(t, kube, ns, "rendered")["text"]; got != "replicas: 200" {
		t.Fatalf("chart rendered %q", got)
	}

	// The next run (a change of the module's section triggers it) sees param3.
	cm := scenario.ConfigMapData(t, kube, ns, "addon-operator")
	cm["someModule"] += "param4: more\n"
	scenario.PutConfigMap(t, kube, ns, cm)
	op.waitUntil(t, "the module's run with param4", func() bool {
		return strings.Contains(record(t, root, "config"), "param4")
	})
	configs = strings.Split(strings.TrimSpace(record(t, root, "config")), "\n")
	scenario.JSONEqual(t, "next $CONFIG_VALUES_PATH", configs[len(configs)-1],
		`{"global":{"param1":200},"someModule":{"param1":"Long string","param2":"FOO","param3":"newValue","param4":"more"}}`)
}

// A values patch (memory) reaches helm and later hooks but not the ConfigMap.
func TestMemoryPatchReachesHelmNotTheConfigMap(t *testing.T) {
	root := tree(t, map[string]string{
		"modules/values.yaml":                 "alphaEnabled: true\n",
		"modules/001-alpha/Chart.yaml":        "apiVersion: v2\nname: alpha\nversion: 0.1.0\n",
		"modules/001-alpha/templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: alpha\ndata:\n  mem: {{ .Values.alpha.fromMemory | quote }}\n",
		"modules/001-alpha/hooks/before": hook(`{"configVersion":"v1","beforeHelm":1}`,
			`echo '[{"op":"add","path":"/alpha/fromMemory","value":"m1"}]' > $VALUES_JSON_PATCH_PATH`),
		"modules/001-alpha/hooks/after": hook(`{"configVersion":"v1","afterHelm":1}`,
			`record "$(jq -r .alpha.fromMemory $VALUES_PATH)" after-saw`),
	})
	ns := kube.Namespace(t)
	op := startSpec(t, root, ns)
	op.waitReady(t)
	if got := scenario.ConfigMapData(t, kube, ns, "alpha")["mem"]; got != "m1" {
		t.Fatalf("helm got %q", got)
	}
	if got := record(t, root, "after-saw"); got != "m1\n" {
		t.Fatalf("afterHelm saw fromMemory %q", got)
	}
	if cm := scenario.ConfigMapData(t, kube, ns, "addon-operator"); cm != nil {
		t.Fatalf("memory patch reached the ConfigMap: %v", cm)
	}
}

// spec/LIFECYCLE.md: afterHelm fails on the first module run; after the
// delay onStartup and beforeHelm run again, then helm, then afterHelm.
func TestSpecAfterHelmFailsOnce(t *testing.T) {
	root := tree(t, map[string]string{
		"modules/values.yaml":                 "alphaEnabled: true\n",
		"modules/001-alpha/Chart.yaml":        "apiVersion: v2\nname: alpha\nversion: 0.1.0\n",
		"modules/001-alpha/templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: alpha\n",
		"modules/001-alpha/hooks/a-start":     hook(`{"configVersion":"v1","onStartup":1}`, `record onStartup order`),
		"modules/001-alpha/hooks/b-before":    hook(`{"configVersion":"v1","beforeHelm":1}`, `record beforeHelm order`),
		"modules/001-alpha/hooks/c-after": hook(`{"configVersion":"v1","afterHelm":1}`,
			`if [[ ! -e $RECORD_DIR/failed ]]; then touch $RECORD_DIR/failed; record afterHelm-failed order; exit 1; fi; record afterHelm order`),
	})
	op := startSpec(t, root, kube.Namespace(t))
	op.waitReady(t)
	want := "onStartup\nbeforeHelm\nafterHelm-failed\nonStartup\nbeforeHelm\nafterHelm\n"
	if got := record(t, root, "order"); got != want {
		t.Fatalf("order\n%s\nwant\n%s", got, want)
	}
	if n := op.count("task failed; retrying", map[string]any{"attempt": 1.0}); n != 1 {
		t.Fatalf("%d retries logged, want 1", n)
	}
}

// A release this operator installed whose module dir is gone is purged,
// with no afterDeleteHelm.
func TestPurgeOfReleaseWithoutModuleDir(t *testing.T) {
	ns := kube.Namespace(t)
	gone := tree(t, map[string]string{
		"Chart.yaml":        "apiVersion: v2\nname: gone\nversion: 0.1.0\n",
		"templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: gone\n",
	})
	r, err := chartrun.NewReleaser(kube.Config(t), ns, chartrun.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Upgrade(context.Background(), chartrun.Request{Release: "gone", ChartDir: gone}); err != nil {
		t.Fatal(err)
	}
	root := tree(t, map[string]string{"modules/values.yaml": "{}\n"})
	op := startSpec(t, root, ns)
	op.waitReady(t)
	if names, _ := r.List(context.Background()); len(names) != 0 {
		t.Fatalf("releases after converge: %v", names)
	}
	if scenario.ConfigMapData(t, kube, ns, "gone") != nil {
		t.Fatal("the purged release's objects remain")
	}
	if n := op.count("purged release without a module dir", map[string]any{"release": "gone"}); n != 1 {
		t.Fatalf("purge logged %d times\n%s", n, op.logText())
	}
}

// afterAll changing global values converges again (steps 3-8), once.
func TestSpecAfterAllChangingGlobalValuesConvergesAgain(t *testing.T) {
	root := tree(t, map[string]string{
		"global-hooks/before-all": hook(`{"configVersion":"v1","beforeAll":1}`, `record beforeAll order`),
		"global-hooks/after-all": hook(`{"configVersion":"v1","afterAll":1}`,
			`record afterAll order; echo '[{"op":"add","path":"/global/settled","value":true}]' > $VALUES_JSON_PATCH_PATH`),
	})
	op := startSpec(t, root, kube.Namespace(t))
	op.waitReady(t)
	op.waitIdle(t)
	want := "beforeAll\nafterAll\nbeforeAll\nafterAll\n"
	if got := record(t, root, "order"); got != want {
		t.Fatalf("order\n%s\nwant\n%s", got, want)
	}
}
