package e2e_test

import (
	"strings"
	"testing"

	"helm.sh/helm/v3/pkg/action"

	"github.com/addon-actors/addon-operator/test/scenario"
)

// spec/LIFECYCLE-STEPS.md step 5: afterHelm changing the module's values
// restarts the module run (without onStartup), once: the next run
// changes nothing.
func TestSpecAfterHelmChangingValuesRunsTheModuleAgain(t *testing.T) {
	root := tree(t, alphaChart(map[string]string{
		"modules/values.yaml":           "alphaEnabled: true\n",
		"modules/001-alpha/hooks/start": hook(`{"configVersion":"v1","onStartup":1}`, `record onStartup order`),
		"modules/001-alpha/hooks/before": hook(`{"configVersion":"v1","beforeHelm":1}`,
			`record "beforeHelm-$(jq -r .alpha.settled $VALUES_PATH)" order`),
		"modules/001-alpha/hooks/after": hook(`{"configVersion":"v1","afterHelm":1}`,
			`record afterHelm order; echo '[{"op":"add","path":"/alpha/settled","value":"yes"}]' > $VALUES_JSON_PATCH_PATH`),
	}))
	ns := kube.Namespace(t)
	op := startSpec(t, root, ns)
	op.waitReady(t)
	op.waitIdle(t)
	want := "onStartup beforeHelm-null afterHelm beforeHelm-yes afterHelm"
	if got := strings.Join(strings.Fields(record(t, root, "order")), " "); got != want {
		t.Fatalf("ran\n%s\nwant\n%s", got, want)
	}
	if got := scenario.ConfigMapData(t, kube, ns, "alpha")["settled"]; got != "yes" {
		t.Fatalf("helm got settled %q", got)
	}
}

// spec/LIFECYCLE-STEPS.md step 4: the enabled script gets the ConfigMap's
// global and module sections in $CONFIG_VALUES_PATH, and in $VALUES_PATH
// the merged values with global.enabledModules: the modules enabled before
// it. A module's values merge modules/values.yaml, then its own
// values.yaml, then the ConfigMap.
func TestSpecEnabledScriptInputs(t *testing.T) {
	script := "#!/usr/bin/env bash\n" + recordLib + `mkdir -p $RECORD_DIR
jq -c . $CONFIG_VALUES_PATH > $RECORD_DIR/config; jq -c . $VALUES_PATH > $RECORD_DIR/values
echo true > $MODULE_ENABLED_RESULT
`
	root := tree(t, map[string]string{
		"modules/values.yaml":            "global:\n  g: common\nfirstEnabled: true\nsecondEnabled: true\nthirdEnabled: true\nsecond:\n  a: common\n  b: common\n  c: common\n",
		"modules/001-first/values.yaml":  "first: {}\n",
		"modules/002-second/values.yaml": "second:\n  b: own\n  c: own\n",
		"modules/002-second/enabled":     script,
		"modules/003-third/values.yaml":  "third: {}\n",
	})
	ns := kube.Namespace(t)
	scenario.PutConfigMap(t, kube, ns, map[string]string{"global": "h: config\n", "second": "c: config\n"})
	op := startSpec(t, root, ns)
	op.waitReady(t)
	scenario.JSONEqual(t, "enabled script's $CONFIG_VALUES_PATH", record(t, root, "config"),
		`{"global":{"h":"config"},"second":{"c":"config"}}`)
	scenario.JSONEqual(t, "enabled script's $VALUES_PATH", record(t, root, "values"),
		`{"global":{"g":"common","h":"config","enabledModules":["first"]},"second":{"a":"common","b":"own","c":"config"}}`)
	op.expectEnabled(t, "first", "second", "third")
}

// spec/VALUES.md: a module section "false" in the ConfigMap disables the
// module; the release is named after the module whatever Chart.yaml's
// name (spec/LIFECYCLE-STEPS.md step 5).
func TestSpecSectionFalseDisablesAndReleaseName(t *testing.T) {
	files := alphaChart(map[string]string{"modules/values.yaml": "alphaEnabled: true\n"})
	files["modules/001-alpha/Chart.yaml"] = "apiVersion: v2\nname: some-other-name\nversion: 0.1.0\n"
	root, ns := tree(t, files), kube.Namespace(t)
	op := startSpec(t, root, ns)
	op.waitReady(t)
	if _, err := action.NewGet(plainHelm(t, ns)).Run("alpha"); err != nil {
		t.Fatalf("release alpha: %v", err)
	}
	scenario.PutConfigMap(t, kube, ns, map[string]string{"alpha": "false"})
	op.waitUntil(t, "alpha disabled", func() bool { return len(op.enabledModules(t)) == 0 })
	op.waitUntil(t, "alpha's release gone", func() bool { return scenario.ConfigMapData(t, kube, ns, "alpha") == nil })
}

// spec/MODULES.md: onStartup runs for a module at start and again when a
// disabled module becomes enabled.
func TestSpecReenabledModuleRunsOnStartupAgain(t *testing.T) {
	root := tree(t, map[string]string{
		"modules/values.yaml":           "alphaEnabled: true\n",
		"modules/001-alpha/hooks/start": hook(`{"configVersion":"v1","onStartup":1}`, `record onStartup order`),
		"modules/001-alpha/hooks/gone":  hook(`{"configVersion":"v1","afterDeleteHelm":1}`, `record afterDeleteHelm order`),
		"modules/001-alpha/hooks/after": hook(`{"configVersion":"v1","afterHelm":1}`, `record afterHelm order`),
	})
	ns := kube.Namespace(t)
	op := startSpec(t, root, ns)
	op.waitReady(t)
	scenario.PutConfigMap(t, kube, ns, map[string]string{"alphaEnabled": "false"})
	op.waitUntil(t, "alpha deleted", func() bool { return strings.Contains(record(t, root, "order"), "afterDeleteHelm") })
	scenario.PutConfigMap(t, kube, ns, map[string]string{"alphaEnabled": "true"})
	op.waitUntil(t, "alpha run again", func() bool { return strings.Count(record(t, root, "order"), "afterHelm\n") == 2 })
	want := "onStartup afterHelm afterDeleteHelm onStartup afterHelm"
	if got := strings.Join(strings.Fields(record(t, root, "order")), " "); got != want {
		t.Fatalf("ran\n%s\nwant\n%s", got, want)
	}
}
