package values_test

import (
	"encoding/json"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/addon-actors/addon-operator/values"
	"github.com/addon-actors/addon-operator/values/configmap"
	"github.com/addon-actors/addon-operator/values/valuestest"
)

// assertJSON compares got, marshalled as a hook would find it in its file,
// with the JSON (or YAML) text want, both parsed.
func assertJSON(t *testing.T, what string, got any, want string) {
	t.Helper()
	raw, err := json.Marshal(got)
	if err != nil {
		t.Fatalf("%s: marshal: %v", what, err)
	}
	var gotDoc, wantDoc any
	if err := json.Unmarshal(raw, &gotDoc); err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal([]byte(want), &wantDoc); err != nil {
		t.Fatalf("%s: bad expectation: %v", what, err)
	}
	if !values.Equal(gotDoc, wantDoc) {
		t.Errorf("%s:\n got  %s\n want %s", what, raw, valuestest.Marshal(t, wantDoc))
	}
}

func valuesFile(t *testing.T, file, content string) values.Sections {
	t.Helper()
	s, err := values.ParseValuesFile(file, []byte(content))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func parseConfigMap(t *testing.T, data map[string]string) values.Sections {
	t.Helper()
	s, err := configmap.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func moduleNames(t *testing.T, dir string) values.Names {
	t.Helper()
	n, err := values.ParseModuleDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// withoutEnabledModules drops global.enabledModules from a $VALUES_PATH
// document, for spec examples that leave it out.
func withoutEnabledModules(doc map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range doc {
		out[k] = v
	}
	global := map[string]any{}
	for k, v := range doc[values.GlobalKey].(map[string]any) {
		if k != values.EnabledModulesKey {
			global[k] = v
		}
	}
	out[values.GlobalKey] = global
	return out
}
