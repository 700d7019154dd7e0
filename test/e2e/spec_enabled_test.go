package e2e_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/actors/module"
	"github.com/addon-actors/addon-operator/test/scenario"
)

// spec/LIFECYCLE.md, "keys in values.yaml files" and "values.yaml and
// ConfigMap": nginx-ingress is disabled by its own values.yaml over
// modules/values.yaml; some-module is enabled by the ConfigMap over
// modules/values.yaml, then its enabled script says false.
func TestSpecEnabledLayering(t *testing.T) {
	root := tree(t, map[string]string{
		"modules/values.yaml":                   "nginxIngressEnabled: true\nglobal:\n  param1: 100\nsomeModuleEnabled: false\nplainEnabled: true\n",
		"modules/001-nginx-ingress/values.yaml": "nginxIngressEnabled: false\n",
		"modules/001-some-module/values.yaml":   "someModule:\n  param1: \"String\"\n",
		"modules/001-some-module/enabled": "#!/bin/bash\n" + recordLib +
			"record some-module enabled-ran\necho false > $MODULE_ENABLED_RESULT\n",
		"modules/002-plain/hooks/h": hook(`{"configVersion":"v1","beforeHelm":1}`, `record plain order`),
	})
	ns := kube.Namespace(t)
	scenario.PutConfigMap(t, kube, ns, map[string]string{"global": "param1: 200\n",
		"someModule": "param1: \"Long string\"\nparam2: \"FOO\"\n", "someModuleEnabled": "true"})
	op := startSpec(t, root, ns)
	op.waitReady(t)
	op.expectEnabled(t, "plain")
	if got := record(t, root, "enabled-ran"); got != "some-module\n" {
		t.Fatalf("some-module's enabled script ran %q", got)
	}
}

// spec/LIFECYCLE.md's enabled script: param2 == stopMePlease disables the
// module.
func TestSpecEnabledScriptStopMePlease(t *testing.T) {
	script := "#!/usr/bin/env bash\n\nparam2=$(jq -r '.simpleModule.param2' $VALUES_PATH)\n\n" +
		"if [[ $param2 == \"stopMePlease\" ]] ; then\n  echo \"false\" > $MODULE_ENABLED_RESULT\nelse\n" +
		"  echo \"true\" > $MODULE_ENABLED_RESULT\nfi\n"
	for param2, want := range map[string][]string{"stopMePlease": {}, "goOn": {"simple-module"}} {
		t.Run(param2, func(t *testing.T) {
			root := tree(t, map[string]string{
				"modules/values.yaml":               "simpleModuleEnabled: true\n",
				"modules/010-simple-module/enabled": script,
			})
			ns := kube.Namespace(t)
			scenario.PutConfigMap(t, kube, ns, map[string]string{"simpleModule": "param2: " + param2 + "\n"})
			op := startSpec(t, root, ns)
			op.waitReady(t)
			op.expectEnabled(t, want...)
		})
	}
}

// Disabling a module in the ConfigMap uninstalls its release, then runs its
// afterDeleteHelm hooks.
func TestDisableViaConfigMapUninstallsThenRunsAfterDeleteHelm(t *testing.T) {
	root := tree(t, map[string]string{
		"modules/values.yaml":                 "alphaEnabled: true\n",
		"modules/001-alpha/Chart.yaml":        "apiVersion: v2\nname: alpha\nversion: 0.1.0\n",
		"modules/001-alpha/templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: alpha\ndata: {}\n",
		"modules/001-alpha/hooks/deleted":     hook(`{"configVersion":"v1","afterDeleteHelm":1}`, `record after-delete order`),
	})
	ns := kube.Namespace(t)
	op := startSpec(t, root, ns)
	op.waitReady(t)
	if scenario.ConfigMapData(t, kube, ns, "alpha") == nil {
		t.Fatal("alpha not installed")
	}
	scenario.PutConfigMap(t, kube, ns, map[string]string{"alphaEnabled": "false"})
	op.waitUntil(t, "alpha deleted", func() bool { return op.modules(t)["alpha"].LastRun == "ModuleDelete" })
	if scenario.ConfigMapData(t, kube, ns, "alpha") != nil {
		t.Fatal("alpha's objects still exist")
	}
	if got := record(t, root, "order"); strings.TrimSpace(got) != "after-delete" {
		t.Fatalf("hooks after disable: %q", got)
	}
}

// Dynamic enable (spec/MODULES.md): a global hook sets <module>Enabled in
// memory; discovery follows it.
func TestGlobalHookEnablesAModuleDynamically(t *testing.T) {
	root := tree(t, map[string]string{
		"global-hooks/enable": hook(`{"configVersion":"v1","beforeAll":1}`,
			`echo '[{"op":"add","path":"/alphaEnabled","value":true}]' > $VALUES_JSON_PATCH_PATH`),
		"modules/001-alpha/hooks/h": hook(`{"configVersion":"v1","beforeHelm":1}`, `record alpha order`),
		"modules/002-beta/hooks/h":  hook(`{"configVersion":"v1","beforeHelm":1}`, `record beta order`),
	})
	op := startSpec(t, root, kube.Namespace(t))
	op.waitReady(t)
	op.expectEnabled(t, "alpha")
	if got := record(t, root, "order"); got != "alpha\n" {
		t.Fatalf("ran %q", got)
	}
}

// Module dirs that cannot be used are left out with an error naming them
// (a name that is not a valid module name, a values.yaml that does not
// parse, a hook whose --config fails); the other modules run.
func TestBadModuleDirsAreLeftOut(t *testing.T) {
	root := tree(t, map[string]string{
		"modules/values.yaml":              "goodEnabled: true\nbrokenEnabled: true\nnoConfigEnabled: true\n",
		"modules/001-Bad_Name/values.yaml": "{}\n",
		"modules/002-broken/values.yaml":   "broken: [unclosed\n",
		"modules/003-no-config/hooks/h":    "#!/usr/bin/env bash\necho 'not json'\n",
		"modules/004-good/hooks/h":         hook(`{"configVersion":"v1","beforeHelm":1}`, `record good order`),
	})
	ns := kube.Namespace(t)
	op := startSpec(t, root, ns)
	op.waitReady(t)
	if got := record(t, root, "order"); got != "good\n" {
		t.Fatalf("ran %q, want good", got)
	}
	op.expectEnabled(t, "good")
	if m := op.modules(t)["no-config"]; m.Phase != "failed" || m.LastErr == "" {
		t.Fatalf("module list shows no-config as %+v, want failed with its error", m)
	}
	failed := `addon_operator_module_failed{module="no-config"} 1`
	if _, metrics := op.get(t, "/metrics"); !strings.Contains(metrics, failed) {
		t.Fatalf("/metrics does not show no-config failed")
	}
	// Its dir removed, the failed module is gone from the list and the metric.
	if err := os.RemoveAll(filepath.Join(root, "modules", "003-no-config")); err != nil {
		t.Fatal(err)
	}
	scenario.PutConfigMap(t, kube, ns, map[string]string{"global": "converge: again\n"})
	op.waitUntil(t, "no-config gone", func() bool { _, ok := op.modules(t)["no-config"]; return !ok })
	if _, metrics := op.get(t, "/metrics"); strings.Contains(metrics, `module_failed{module="no-config"}`) {
		t.Fatalf("/metrics still shows the removed module failed")
	}
	logs := op.logText()
	for _, name := range []string{"001-Bad_Name", "002-broken/values.yaml", "no-config"} {
		if !strings.Contains(logs, name) {
			t.Fatalf("no error names %s\n%s", name, logs)
		}
	}
}

// A module whose hooks fail to configure (a --config that asks something
// not there yet) is configured again after the retry delay: once they
// configure it is back, with no restart and no edit of its dir: its
// failure metric goes and a converge runs it.
func TestModuleHooksConfiguredOnARetry(t *testing.T) {
	root, ns := t.TempDir(), kube.Namespace(t)
	gate := filepath.Join(root, "gate")
	writeFiles(t, root, map[string]string{
		"modules/values.yaml": "lateEnabled: true\n",
		"modules/001-late/hooks/h": "#!/usr/bin/env bash\nset -euo pipefail\n" + scenario.RecordLib +
			"if [[ ${1:-} == --config ]]; then\n  [[ -e " + gate + " ]] || { echo 'apiserver away' >&2; exit 1; }\n" +
			"  echo '{\"configVersion\":\"v1\",\"beforeHelm\":1}'; exit 0\nfi\nrecord late order\n",
	})
	op := startSpec(t, root, ns)
	op.waitReady(t)
	waitFor(t, "a retry that fails too", func() bool { return op.count(module.StartFailedMessage, nil) >= 2 })
	if m := op.modules(t)["late"]; m.Phase != "failed" || !strings.Contains(m.LastErr, "apiserver away") {
		t.Fatalf("module list shows late as %+v, want failed with its error", m)
	}
	metricHas(t, op, `addon_operator_module_failed{module="late"} 1`)
	if err := os.WriteFile(gate, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	op.waitRecord(t, module.RecoveredMessage, map[string]any{"module": "late"})
	waitFor(t, "late's beforeHelm run", func() bool {
		got, err := os.ReadFile(filepath.Join(root, "record", "order"))
		return err == nil && string(got) == "late\n"
	})
	op.waitIdle(t)
	op.expectEnabled(t, "late")
	if _, metrics := op.get(t, "/metrics"); strings.Contains(metrics, `module_failed{module="late"}`) {
		t.Fatalf("/metrics still shows late failed")
	}
}
