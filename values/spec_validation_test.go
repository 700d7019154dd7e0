package values_test

import (
	"errors"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/addon-actors/addon-operator/values"
	"github.com/addon-actors/addon-operator/values/schema"
	"github.com/addon-actors/addon-operator/values/valuestest"
)

// specSchemas loads the schemas of a spec/VALUES.md example from
// testdata/spec (package schema's tests read them too).
func specSchemas(t *testing.T, example string) *schema.Set {
	t.Helper()
	set, err := schema.Load(os.DirFS("testdata/spec"), example, values.GlobalKey)
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// TestSpecValidationExample is the validation example of spec/VALUES.md.
func TestSpecValidationExample(t *testing.T) {
	set := specSchemas(t, "validation")
	global, err := values.NewGlobalScope(set)
	if err == nil {
		t.Fatal("empty global values pass a schema with required keys")
	}
	// The ConfigMap of the example: invalid at start-up, the operator stops.
	cfg := parseConfigMap(t, map[string]string{"global": "project: myProject\n", "moduleOne": "param1: value1\n"})
	_, err = global.WithConfig(cfg.Global)
	var verr *schema.ValidationError
	if !errors.As(err, &verr) || !errors.Is(err, schema.ErrInvalidValues) {
		t.Fatalf("err = %v, want a *schema.ValidationError", err)
	}
	// The validator reports minProperties and stops there for this object;
	// with two properties, the missing required key shows.
	want := schema.Violation{Path: "/global", Rule: "minProperties", Message: "global in body should have at least 2 properties"}
	if verr.Scope != "global" || !strings.HasSuffix(verr.Schema, "validation/config-values.yaml") ||
		len(verr.Violations) != 1 || verr.Violations[0] != want {
		t.Errorf("got %+v\nwant violation %+v", verr, want)
	}
	_, err = global.WithConfig(map[string]any{"project": "myProject", "clusterHostname": "h"})
	if !errors.As(err, &verr) || len(verr.Violations) != 1 || verr.Violations[0] !=
		(schema.Violation{Path: "/global/clusterName", Rule: "required", Message: "global.clusterName in body is required"}) {
		t.Errorf("got %v, want clusterName required", err)
	}

	// A valid ConfigMap, then the config patch of the example.
	valid := parseConfigMap(t, map[string]string{"global": "project: myProject\nclusterName: main\n"})
	global, err = global.WithConfig(valid.Global)
	if err != nil {
		t.Fatal(err)
	}
	// As printed, the value is the JSON string "{}", which is a string and
	// so passes; the spec means an object, which is refused.
	if _, err := global.WithConfigPatch(valuestest.Patch(t, `[{"op":"add", "path":"/global/clusterHostname", "value":"{}"}]`)); err != nil {
		t.Errorf("the string \"{}\" is a string: %v", err)
	}
	same, err := global.WithConfigPatch(valuestest.Patch(t, `[{"op":"add", "path":"/global/clusterHostname", "value":{}}]`))
	if err == nil || !strings.Contains(err.Error(), `/global/clusterHostname: type: global.clusterHostname in body must be of type string: "object"`) {
		t.Fatalf("err = %v, want a type violation at /global/clusterHostname", err)
	}
	assertJSON(t, "config after a refused patch", same.ConfigValues(), `{"project":"myProject","clusterName":"main"}`)
}

// TestSpecDefaultsExample is the defaults example of spec/VALUES.md, seen in
// a global hook's $VALUES_PATH ($CONFIG_VALUES_PATH keeps the ConfigMap part).
func TestSpecDefaultsExample(t *testing.T) {
	set := specSchemas(t, "defaults")
	common := valuesFile(t, "modules/values.yaml", "global:\n  project: p\n  clusterName: c\n")
	global, err := values.NewGlobalScope(set, common)
	if err != nil {
		t.Fatal(err)
	}
	in := values.GlobalHookInput(global.Snapshot())
	assertJSON(t, "$VALUES_PATH", in.Values, `{"global":{"project":"p","clusterName":"c","discovery":{}}}`)
	assertJSON(t, "$CONFIG_VALUES_PATH", in.ConfigValues, `{"global":{}}`)
	// A hook sets param1, which values.yaml requires.
	global, _, err = global.WithValuesPatch(valuestest.Patch(t, `[{"op":"add","path":"/global/param1","value":"x"},
		{"op":"add","path":"/global/discovery/found","value":true}]`))
	if err != nil {
		t.Fatal(err)
	}
	assertJSON(t, "$VALUES_PATH after the hook", values.GlobalHookInput(global.Snapshot()).Values,
		`{"global":{"project":"p","clusterName":"c","discovery":{"found":true},"param1":"x"}}`)
	// Present in the ConfigMap: no default.
	global, err = global.WithConfig(map[string]any{"discovery": map[string]any{"fromConfig": 1.0}})
	if err == nil {
		t.Fatal("discovery is not in config-values.yaml: the ConfigMap may not set it")
	}
}

// TestSpecRequiredForHelmExample is the x-required-for-helm example of
// spec/VALUES.md with its two hooks.
func TestSpecRequiredForHelmExample(t *testing.T) {
	set := specSchemas(t, "required-for-helm")
	global, err := values.NewGlobalScope(set)
	if err != nil {
		t.Fatal(err)
	}
	global, _, err = global.WithValuesPatch(valuestest.Patch(t, `[{"op":"add","path":"/global/param1","value":"a"}]`))
	if err != nil {
		t.Fatalf("first hook: %v", err)
	}
	if err := global.ValidateForHelm(); err == nil || !strings.Contains(err.Error(), "/global/param2: required") {
		t.Errorf("before helm with param1 only: %v", err)
	}
	global, _, err = global.WithValuesPatch(valuestest.Patch(t, `[{"op":"add","path":"/global/param2","value":"b"}]`))
	if err != nil {
		t.Fatalf("second hook: %v", err)
	}
	if err := global.ValidateForHelm(); err != nil {
		t.Errorf("before helm with both: %v", err)
	}
	// A patch that breaks values.yaml fails the hook and changes nothing.
	same, _, err := global.WithValuesPatch(valuestest.Patch(t, `[{"op":"add","path":"/global/param1","value":5}]`))
	if !errors.Is(err, schema.ErrInvalidValues) || !strings.Contains(err.Error(), "/global/param1: type") {
		t.Fatalf("err = %v", err)
	}
	assertJSON(t, "values after a refused patch", same.Values(), `{"param1":"a","param2":"b"}`)
}

// TestModuleValidationNamesModule: errors of a module's scope name the module
// and the path inside the values as a hook sees them.
func TestModuleValidationNamesModule(t *testing.T) {
	fsys := fstest.MapFS{"modules/001-some-module/openapi/config-values.yaml": &fstest.MapFile{
		Data: []byte("type: object\nproperties:\n  replicas: {type: integer, maximum: 5}\n")}}
	names := moduleNames(t, "001-some-module")
	set, err := schema.Load(fsys, "modules/001-some-module/openapi", names.ValuesKey)
	if err != nil {
		t.Fatal(err)
	}
	module, err := values.NewModuleScope(names, set)
	if err != nil {
		t.Fatal(err)
	}
	_, err = module.WithConfig(map[string]any{"replicas": 9.0})
	want := `module "some-module": values do not match modules/001-some-module/openapi/config-values.yaml: ` +
		`/someModule/replicas: maximum: someModule.replicas in body should be less than or equal to 5`
	if err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
}
