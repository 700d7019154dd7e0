package e2e_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/test/scenario"
)

// spec/MODULES.md: a module's values may be "a map or an array". A module
// whose values.yaml section is a list runs: its enabled script and hooks get
// the list, a hook's values patch appends to it, and helm renders it; a
// ConfigMap section that is an empty list replaces it.
func TestModuleValuesThatAreAList(t *testing.T) {
	root := tree(t, map[string]string{
		"modules/values.yaml":               "myModuleEnabled: true\n",
		"modules/001-my-module/values.yaml": "myModule: [1, 2]\n",
		"modules/001-my-module/Chart.yaml":  "apiVersion: v2\nname: my-module\nversion: 0.1.0\n",
		"modules/001-my-module/templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: my-list\n" +
			"data:\n  list: {{ toJson .Values.myModule | quote }}\n",
		"modules/001-my-module/enabled": "#!/bin/bash\n" + recordLib +
			"record \"$(jq -c .myModule $VALUES_PATH)\" enabled-saw\necho true > $MODULE_ENABLED_RESULT\n",
		"modules/001-my-module/hooks/before": hook(`{"configVersion":"v1","beforeHelm":1}`,
			`record "$(jq -c .myModule $VALUES_PATH)" values; record "$(jq -c .myModule $CONFIG_VALUES_PATH)" config
echo '[{"op":"add","path":"/myModule/-","value":3}]' > $VALUES_JSON_PATCH_PATH`),
	})
	ns := kube.Namespace(t)
	op := startSpec(t, root, ns)
	op.waitReady(t)

	if got := record(t, root, "enabled-saw"); got != "[1,2]\n" {
		t.Fatalf("the enabled script saw myModule %q", got)
	}
	if got, cfg := record(t, root, "values"), record(t, root, "config"); got != "[1,2]\n" || cfg != "{}\n" {
		t.Fatalf("beforeHelm saw $VALUES_PATH myModule %q, $CONFIG_VALUES_PATH myModule %q", got, cfg)
	}
	if got := scenario.ConfigMapData(t, kube, ns, "my-list")["list"]; got != "[1,2,3]" {
		t.Fatalf("the chart rendered list %q, want the patched [1,2,3]", got)
	}
	var shown struct{ Values any }
	if err := json.Unmarshal([]byte(op.cli(t, "module", "values", "my-module", "-o", "json")), &shown); err != nil {
		t.Fatal(err)
	}
	if raw, _ := json.Marshal(shown.Values); string(raw) != "[1,2,3]" {
		t.Fatalf("module values shows %s", raw)
	}

	// An empty list in the ConfigMap replaces values.yaml's list; the
	// in-memory append replays over it, and the next beforeHelm appends again.
	scenario.PutConfigMap(t, kube, ns, map[string]string{"myModule": "[]"})
	op.waitUntil(t, "the module's run with the ConfigMap's empty list", func() bool {
		return scenario.ConfigMapData(t, kube, ns, "my-list")["list"] == "[3,3]"
	})
	if got := strings.Split(strings.TrimSpace(record(t, root, "config")), "\n"); got[len(got)-1] != "[]" {
		t.Fatalf("beforeHelm's $CONFIG_VALUES_PATH myModule: %q", got)
	}
	if got := strings.Split(strings.TrimSpace(record(t, root, "values")), "\n"); got[len(got)-1] != "[3]" {
		t.Fatalf("beforeHelm's $VALUES_PATH myModule: %q", got)
	}
}
