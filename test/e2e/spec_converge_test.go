package e2e_test

import (
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/test/scenario"
)

// One converge: global onStartup hooks by ORDER (a global values patch of
// the first reaching the chart), module onStartup, beforeHelm (seeing
// global.enabledModules), helm, afterHelm, then afterAll; a module whose
// enabled script says false runs nothing.
func TestConvergeRunsHooksInOrderAndInstallsTheChart(t *testing.T) {
	root := tree(t, map[string]string{
		"global-hooks/a-second": hook(`{"configVersion":"v1","onStartup":20}`, `record a-second order`),
		"global-hooks/b-first": hook(`{"configVersion":"v1","onStartup":10}`,
			`record b-first order; echo '[{"op":"add","path":"/global/fromHook","value":"x"}]' > $VALUES_JSON_PATCH_PATH`),
		"global-hooks/c-after-all":      hook(`{"configVersion":"v1","afterAll":1}`, `record after-all order`),
		"modules/values.yaml":           "global:\n  param: 1\nalphaEnabled: true\nbetaEnabled: true\n",
		"modules/001-alpha/Chart.yaml":  "apiVersion: v2\nname: alpha\nversion: 0.1.0\n",
		"modules/001-alpha/values.yaml": "alpha:\n  replicas: 2\n",
		"modules/001-alpha/templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: alpha\ndata:\n" +
			"  replicas: \"{{ .Values.alpha.replicas }}\"\n  fromHook: \"{{ .Values.global.fromHook }}\"\n",
		"modules/001-alpha/hooks/before": hook(`{"configVersion":"v1","beforeHelm":1}`,
			`record "$(jq -c .global.enabledModules $VALUES_PATH)" alpha-before; record alpha-before order`),
		"modules/001-alpha/hooks/after": hook(`{"configVersion":"v1","afterHelm":1}`, `record alpha-after order`),
		"modules/001-alpha/hooks/start": hook(`{"configVersion":"v1","onStartup":1}`, `record alpha-startup order`),
		"modules/002-beta/enabled":      "#!/usr/bin/env bash\necho false > $MODULE_ENABLED_RESULT\n",
		"modules/002-beta/hooks/before": hook(`{"configVersion":"v1","beforeHelm":1}`, `record beta-before order`),
	})
	ns := kube.Namespace(t)
	op := startSpec(t, root, ns)
	op.waitReady(t)

	want := "b-first\na-second\nalpha-startup\nalpha-before\nalpha-after\nafter-all\n"
	if got := record(t, root, "order"); got != want {
		t.Fatalf("hooks ran in order\n%s\nwant\n%s", got, want)
	}
	if got := strings.TrimSpace(record(t, root, "alpha-before")); got != `["alpha"]` {
		t.Fatalf("enabledModules seen by alpha: %s", got)
	}
	cm := scenario.ConfigMapData(t, kube, ns, "alpha")
	if cm["replicas"] != "2" || cm["fromHook"] != "x" {
		t.Fatalf("rendered values %v", cm)
	}
}
