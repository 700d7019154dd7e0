package values_test

import (
	"errors"
	"strings"
	"testing"
	"text/template"

	"github.com/addon-actors/addon-operator/values"
	"github.com/addon-actors/addon-operator/values/configmap"
	"github.com/addon-actors/addon-operator/values/valuestest"
)

// scopes builds the global and module scopes of the spec/VALUES.md example.
func valuesExample(t *testing.T, data map[string]string) (values.Scope, values.Scope, values.Names) {
	t.Helper()
	common := valuesFile(t, "modules/values.yaml", "global:\n  param1: 100\n  param2: \"Yes\"\n")
	own := valuesFile(t, "modules/01-some-module/values.yaml", "someModule:\n  param1: \"String\"\n")
	names := moduleNames(t, "01-some-module")
	cfg := parseConfigMap(t, data)
	global, err := values.NewGlobalScope(nil, common)
	if err != nil {
		t.Fatal(err)
	}
	if global, err = global.WithConfig(cfg.Global); err != nil {
		t.Fatal(err)
	}
	module, err := values.NewModuleScope(names, nil, common, own)
	if err != nil {
		t.Fatal(err)
	}
	if module, err = module.WithConfig(cfg.Modules[names.ValuesKey]); err != nil {
		t.Fatal(err)
	}
	return global, module, names
}

// TestSpecValuesExample is the "Example" of spec/VALUES.md, run to its end.
// The spec prints param2 as "YES" in $VALUES_PATH while modules/values.yaml
// sets "Yes"; values are not changed on the way, so "Yes" is expected. The
// spec's $VALUES_PATH also leaves out global.enabledModules, which the same
// spec adds for module hooks: it is checked on its own.
func TestSpecValuesExample(t *testing.T) {
	data := map[string]string{
		"global":     "param1: 200\n",
		"someModule": "param1: \"Long string\"\nparam2: \"FOO\"\n",
	}
	global, module, _ := valuesExample(t, data)
	in := values.ModuleHookInput(global.Snapshot(), module.Snapshot(), []string{"some-module"})
	assertJSON(t, "$CONFIG_VALUES_PATH", in.ConfigValues, `{"global":{
    "param1":200
}, "someModule":{
    "param1":"Long string",
    "param2": "FOO"
}}`)
	wantValues := `{"global":{
    "param1":200,
    "param2": "Yes"
}, "someModule":{
    "param1":"Long string",
    "param2": "FOO"
}}`
	assertJSON(t, "$VALUES_PATH", withoutEnabledModules(in.Values), wantValues)
	assertJSON(t, "global.enabledModules", in.Values["global"].(map[string]any)["enabledModules"], `["some-module"]`)
	assertJSON(t, "helm values", values.HelmValues(global.Snapshot(), module.Snapshot()), wantValues)

	// The hook's config patch is written to the ConfigMap at once.
	patch := valuestest.Patch(t, `[{"op":"add", "path":"/someModule/param3", "value":"newValue"}]`)
	written, changed, err := configmap.ApplyPatch(data, patch)
	if err != nil || !changed {
		t.Fatalf("ApplyPatch: changed %v, %v", changed, err)
	}
	if written["global"] != data["global"] {
		t.Errorf("untouched key global rewritten: %q", written["global"])
	}
	assertJSON(t, "ConfigMap someModule", parseConfigMap(t, written).Modules["someModule"],
		"param1: \"Long string\"\nparam2: \"FOO\"\nparam3: \"newValue\"\n")
	change := values.Diff(parseConfigMap(t, data), parseConfigMap(t, written))
	if change.Global || len(change.Enabled) != 0 || strings.Join(change.Modules, ",") != "someModule" {
		t.Errorf("Diff = %+v, want someModule only", change)
	}

	// The module applies the same patch to its own config layer at once; the
	// next run sees the same files either way.
	patched, err := module.WithConfigPatch(patch)
	if err != nil {
		t.Fatal(err)
	}
	global, reloaded, _ := valuesExample(t, written)
	for name, m := range map[string]values.Scope{"patched in memory": patched, "reloaded from ConfigMap": reloaded} {
		in := values.ModuleHookInput(global.Snapshot(), m.Snapshot(), []string{"some-module"})
		assertJSON(t, name+": $CONFIG_VALUES_PATH", in.ConfigValues, `{"global":{
     "param1":200
},
"someModule":{
    "param1":"Long string",
    "param2": "FOO",
    "param3": "newValue"
}}`)
		assertJSON(t, name+": $VALUES_PATH", withoutEnabledModules(in.Values), `{"global":{
    "param1":200,
    "param2": "Yes"
}, "someModule":{
    "param1":"Long string",
    "param2": "FOO",
    "param3": "newValue"
}}`)
	}

	tmpl := template.Must(template.New("chart").Parse("replicas: {{ .Values.global.param1 }}"))
	var out strings.Builder
	if err := tmpl.Execute(&out, map[string]any{"Values": values.HelmValues(global.Snapshot(), reloaded.Snapshot())}); err != nil {
		t.Fatal(err)
	}
	if out.String() != "replicas: 200" {
		t.Errorf("template gave %q, want %q", out.String(), "replicas: 200")
	}
}

// TestSpecValuesFilesExample is the values.yaml section of spec/VALUES.md:
// $MODULES_DIR/values.yaml is overridden by the module's values.yaml.
func TestSpecValuesFilesExample(t *testing.T) {
	common := valuesFile(t, "modules/values.yaml", "global:\n  param1: value1\n  param2: value2\nsimpleModule:\n  modParam1: value3\n")
	own := valuesFile(t, "modules/001-simple-module/values.yaml", "simpleModule:\n  modParam1: value1\n  modParam2: value2\n")
	global, _ := values.NewGlobalScope(nil, common)
	module, err := values.NewModuleScope(moduleNames(t, "001-simple-module"), nil, common, own)
	if err != nil {
		t.Fatal(err)
	}
	assertJSON(t, "helm values", values.HelmValues(global.Snapshot(), module.Snapshot()),
		`{"global":{"param1":"value1","param2":"value2"},"simpleModule":{"modParam1":"value1","modParam2":"value2"}}`)
}

// TestSpecConfigMapExample is the ConfigMap of spec/VALUES.md, with its
// "false" section.
func TestSpecConfigMapExample(t *testing.T) {
	cfg := parseConfigMap(t, map[string]string{
		"global":        "param1: newValue\nparam3: valu3\n",
		"simpleModule":  "modParam2: newValue2\n",
		"anotherModule": "false",
	})
	assertJSON(t, "global", cfg.Global, `{"param1":"newValue","param3":"valu3"}`)
	assertJSON(t, "simpleModule", cfg.Modules["simpleModule"], `{"modParam2":"newValue2"}`)
	if _, ok := cfg.Modules["anotherModule"]; ok || cfg.Enabled["anotherModule"] || len(cfg.Enabled) != 1 {
		t.Errorf("anotherModule: section %v, enabled %v; want disabled, no values", cfg.Modules, cfg.Enabled)
	}
	if values.EnabledByLayers("anotherModule", map[string]bool{"anotherModule": true}, cfg.Enabled) {
		t.Error(`a "false" section in the ConfigMap must disable the module`)
	}
}

// TestSpecModulesValuesExample is the "Values example" of spec/MODULES.md.
// Its ConfigMap shows global as a nested map; ConfigMap data are strings, so
// it is taken as the YAML string it would have to be. Its patch writes the
// path "simpleOneModule.param2", which is not a JSON pointer: that is an
// error naming the fix; the same patch with "/simpleOneModule/param2" gives
// the helm values the spec shows.
func TestSpecModulesValuesExample(t *testing.T) {
	own := valuesFile(t, "modules/001-simple-one-module/values.yaml", "simpleOneModule:\n  param1: value_1\n  param2: value_2\n")
	cfg := parseConfigMap(t, map[string]string{
		"global":          "globParam1: globalValue1\n",
		"simpleOneModule": "param3: value_3\nparam2: newValue_1\n",
	})
	names := moduleNames(t, "001-simple-one-module")
	global, _ := values.NewGlobalScope(nil)
	global, _ = global.WithConfig(cfg.Global)
	module, _ := values.NewModuleScope(names, nil, own)
	module, err := module.WithConfig(cfg.Modules[names.ValuesKey])
	if err != nil {
		t.Fatal(err)
	}
	in := values.ModuleHookInput(global.Snapshot(), module.Snapshot(), []string{"simple-one-module"})
	assertJSON(t, "beforeHelm $VALUES_PATH", withoutEnabledModules(in.Values), `{"global":{
   "globParam1": "globalValue1"
 },
 "simpleOneModule": {
   "param1": "value_1",
   "param2": "newValue_1",
   "param3": "value_3"
 }
}`)

	_, _, err = module.WithValuesPatch(valuestest.Patch(t, `[{"op": "replace", "path":"simpleOneModule.param2", "value":"patchedValue_2"}]`))
	if !errors.Is(err, values.ErrInvalidPath) || !strings.Contains(err.Error(), `"/simpleOneModule/param2"`) ||
		!strings.Contains(err.Error(), `module "simple-one-module"`) {
		t.Fatalf("dotted path: err = %v, want ErrInvalidPath naming the module and the pointer to use", err)
	}
	module, changed, err := module.WithValuesPatch(valuestest.Patch(t, `[{"op": "replace", "path":"/simpleOneModule/param2", "value":"patchedValue_2"}]`))
	if err != nil || !changed {
		t.Fatalf("changed %v, %v", changed, err)
	}
	assertJSON(t, "helm values", values.HelmValues(global.Snapshot(), module.Snapshot()), `
global:
  globParam1: globalValue1
simpleOneModule:
  param1: value_1
  param2: patchedValue_2
  param3: value_3
`)
}
