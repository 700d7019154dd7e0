package values_test

import (
	"testing"

	"github.com/addon-actors/addon-operator/values"
	"github.com/addon-actors/addon-operator/values/valuestest"
)

// TestSpecEnabledInValuesFiles is "keys in values.yaml files" of
// spec/MODULES.md: the module's own values.yaml is the higher layer, and the
// spec's final result is "disabled".
func TestSpecEnabledInValuesFiles(t *testing.T) {
	common := valuesFile(t, "modules/values.yaml", "nginxIngressEnabled: true\n")
	own := valuesFile(t, "modules/001-nginx-ingress/values.yaml", "nginxIngressEnabled: false\n")
	names := moduleNames(t, "001-nginx-ingress")
	if values.EnabledByLayers(names.ValuesKey, common.Enabled, own.Enabled) {
		t.Error("nginx-ingress: want disabled")
	}
}

// TestSpecEnabledByConfigMap is "values.yaml and ConfigMap" of
// spec/MODULES.md: the ConfigMap enables what modules/values.yaml disables,
// so the enabled script runs, and its "false" disables the module.
func TestSpecEnabledByConfigMap(t *testing.T) {
	common := valuesFile(t, "modules/values.yaml", "global:\n  param1: 100\nsomeModuleEnabled: false\n")
	own := valuesFile(t, "modules/001-some-module/values.yaml", "someModule:\n  param1: \"String\"\n")
	cfg := parseConfigMap(t, map[string]string{
		"global":            "param1: 200\n",
		"someModule":        "param1: \"Long string\"\nparam2: \"FOO\"\n",
		"someModuleEnabled": "true",
	})
	names := moduleNames(t, "01-some-module")
	if !values.EnabledByLayers(names.ValuesKey, common.Enabled, own.Enabled, cfg.Enabled) {
		t.Fatal("want enabled by the ConfigMap, so that the enabled script runs")
	}
	// What the enabled script reads: the module's values with
	// global.enabledModules (none enabled before it).
	global, _ := values.NewGlobalScope(nil, common)
	global, _ = global.WithConfig(cfg.Global)
	module, _ := values.NewModuleScope(names, nil, common, own)
	module, err := module.WithConfig(cfg.Modules[names.ValuesKey])
	if err != nil {
		t.Fatal(err)
	}
	in := values.ModuleHookInput(global.Snapshot(), module.Snapshot(), nil)
	assertJSON(t, "enabled script $VALUES_PATH", in.Values,
		`{"global":{"param1":200,"enabledModules":[]},"someModule":{"param1":"Long string","param2":"FOO"}}`)
	assertJSON(t, "enabled script $CONFIG_VALUES_PATH", in.ConfigValues,
		`{"global":{"param1":200},"someModule":{"param1":"Long string","param2":"FOO"}}`)
	// The script writes false: the module is disabled (the script's word is
	// the caller's to combine; nothing here overrides it).
}

// TestEnabledLayers covers the order of every enabled layer, "false"
// sections included (spec/MODULES.md: values.yaml may hold "false" to
// disable a module by default).
func TestEnabledLayers(t *testing.T) {
	falseByDefault := valuesFile(t, "modules/001-a/values.yaml", "a: \"false\"\n")
	cases := []struct {
		name   string
		layers []map[string]bool
		want   bool
	}{
		{"no say anywhere", nil, false},
		{"false section by default", []map[string]bool{falseByDefault.Enabled}, false},
		{"ConfigMap enables over a false section",
			[]map[string]bool{falseByDefault.Enabled, parseConfigMap(t, map[string]string{"aEnabled": "true"}).Enabled}, true},
		{"false section in the ConfigMap wins over aEnabled beside it",
			[]map[string]bool{{"a": true}, parseConfigMap(t, map[string]string{"a": "false", "aEnabled": "true"}).Enabled}, false},
		{"dynamic flag from a global hook is the top layer",
			[]map[string]bool{{"a": true}, {"a": true}, {"a": true}, {"a": false}}, false},
	}
	for _, c := range cases {
		if got := values.EnabledByLayers("a", c.layers...); got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}

// TestDynamicEnabledFromGlobalHook: a global hook's values patch may set
// "xEnabled" keys; they come out of the global scope as flags, not values.
func TestDynamicEnabledFromGlobalHook(t *testing.T) {
	global, _ := values.NewGlobalScope(nil)
	global, changed, err := global.WithValuesPatch(valuestest.Patch(t, `[{"op":"add","path":"/someModuleEnabled","value":true},
		{"op":"add","path":"/global/discovered","value":{"a":1}}]`))
	if err != nil || !changed {
		t.Fatalf("changed %v, %v", changed, err)
	}
	if flags := global.DynamicEnabled(); len(flags) != 1 || !flags["someModule"] {
		t.Errorf("DynamicEnabled = %v", flags)
	}
	assertJSON(t, "global values", global.Values(), `{"discovered":{"a":1}}`)
	_, _, err = global.WithValuesPatch(valuestest.Patch(t, `[{"op":"add","path":"/someModuleEnabled","value":"yes"}]`))
	if err == nil {
		t.Error("a non-boolean enabled flag must be refused")
	}
}

// TestGlobalConfigPatchEnabledKeys: a global hook's config patch may set
// "xEnabled" keys (written to the ConfigMap by the config actor); a
// non-boolean one fails the hook before anything is written.
func TestGlobalConfigPatchEnabledKeys(t *testing.T) {
	global, _ := values.NewGlobalScope(nil)
	next, err := global.WithConfigPatch(valuestest.Patch(t, `[{"op":"add","path":"/someModuleEnabled","value":false},
		{"op":"add","path":"/global/a","value":1}]`))
	if err != nil {
		t.Fatal(err)
	}
	assertJSON(t, "global config", next.ConfigValues(), `{"a":1}`)
	if _, err := global.WithConfigPatch(valuestest.Patch(t, `[{"op":"add","path":"/someModuleEnabled","value":"no"}]`)); err == nil {
		t.Error("a non-boolean enabled key must fail the hook")
	}
	var zero values.Scope
	if _, err := zero.WithConfig(map[string]any{"a": 1.0}); err != nil {
		t.Errorf("zero Scope: %v", err)
	}
}
