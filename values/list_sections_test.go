package values_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/values"
	"github.com/addon-actors/addon-operator/values/valuestest"
)

// A module section may be a list (spec/MODULES.md: "a map or an array";
// spec/VALUES.md: "a list (including empty list)").

// listScope is module "my-module" (values key myModule) with the given
// $MODULES_DIR/values.yaml and module values.yaml texts ("" for none).
func listScope(t *testing.T, common, own string) values.Scope {
	t.Helper()
	s, err := values.NewModuleScope(moduleNames(t, "001-my-module"), nil,
		valuesFile(t, "modules/values.yaml", common), valuesFile(t, "modules/001-my-module/values.yaml", own))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestListSectionLayers: a higher layer's list replaces what is below it, a
// map over a list replaces it, and an absent, null or empty-map section adds
// nothing (so it never hides a list); an empty list does replace.
func TestListSectionLayers(t *testing.T) {
	cases := []struct {
		name, common, own, configMap string // configMap: the key's YAML text, "-" for no key
		want                         string
	}{
		{"own list", "", "myModule: [1, 2]", "-", `[1, 2]`},
		{"own list over common map", "myModule: {a: 1}", "myModule: [1, 2]", "-", `[1, 2]`},
		{"own map over common list", "myModule: [1]", "myModule: {a: 1}", "-", `{"a": 1}`},
		{"null own over common list", "myModule: [1]", "myModule:", "-", `[1]`},
		{"ConfigMap list replaces", "myModule: [1]", "myModule: [2, 3]", "[4]", `[4]`},
		{"ConfigMap empty list replaces", "", "myModule: [1, 2]", "[]", `[]`},
		{"ConfigMap empty map adds nothing", "", "myModule: [1, 2]", "{}", `[1, 2]`},
		{"ConfigMap empty value adds nothing", "", "myModule: [1, 2]", "", `[1, 2]`},
		{"ConfigMap map replaces a list", "", "myModule: [1, 2]", "a: 1", `{"a": 1}`},
		{"ConfigMap list over a map", "", "myModule: {a: 1}", "- x", `["x"]`},
		{"list of maps is not merged by index", "", "myModule: [{a: 1}]", "[{b: 2}]", `[{"b": 2}]`},
		{"empty list in values.yaml", "", "myModule: []", "-", `[]`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := listScope(t, c.common, c.own)
			data := map[string]string{}
			if c.configMap != "-" {
				data["myModule"] = c.configMap
			}
			cfg := parseConfigMap(t, data)
			s, err := s.WithConfig(cfg.Modules["myModule"])
			if err != nil {
				t.Fatal(err)
			}
			assertJSON(t, "values", s.Values(), c.want)
		})
	}
}

// TestListSectionPatches: hooks' values patches address list items, append
// with "-", and are replayed over a new ConfigMap layer.
func TestListSectionPatches(t *testing.T) {
	cases := []struct {
		name    string
		patches []string // one per hook run
		want    string
	}{
		{"append", []string{`[{"op":"add","path":"/myModule/-","value":3}]`}, `[1, 2, 3]`},
		{"append on every run", []string{`[{"op":"add","path":"/myModule/-","value":3}]`,
			`[{"op":"add","path":"/myModule/-","value":3}]`}, `[1, 2, 3, 3]`},
		{"insert", []string{`[{"op":"add","path":"/myModule/0","value":0}]`}, `[0, 1, 2]`},
		{"replace an item", []string{`[{"op":"replace","path":"/myModule/0","value":"one"}]`}, `["one", 2]`},
		{"remove an item", []string{`[{"op":"remove","path":"/myModule/0"}]`}, `[2]`},
		{"replace the list", []string{`[{"op":"replace","path":"/myModule","value":[7]}]`}, `[7]`},
		{"list to map", []string{`[{"op":"add","path":"/myModule","value":{"a":1}}]`}, `{"a": 1}`},
		{"into an item", []string{`[{"op":"add","path":"/myModule/-","value":{}}]`,
			`[{"op":"add","path":"/myModule/2/x","value":true}]`}, `[1, 2, {"x": true}]`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := listScope(t, "", "myModule: [1, 2]")
			for _, p := range c.patches {
				next, changed, err := s.WithValuesPatch(valuestest.Patch(t, p))
				if err != nil || !changed {
					t.Fatalf("patch %s: changed %v, %v", p, changed, err)
				}
				s = next
			}
			assertJSON(t, "values", s.Values(), c.want)
			assertJSON(t, "config values", s.ConfigValues(), `{}`)
		})
	}
}

func TestListSectionPatchErrors(t *testing.T) {
	s := listScope(t, "", "myModule: [1, 2]")
	cases := []struct {
		name, patch string
		want        error
		msg         string
	}{
		{"index out of range", `[{"op":"replace","path":"/myModule/5","value":1}]`, values.ErrPathNotFound,
			"index 5 is out of range for a list of 2"},
		{"not an index", `[{"op":"add","path":"/myModule/x","value":1}]`, values.ErrInvalidPath, `"x" is not an array index`},
		{"section to a scalar", `[{"op":"add","path":"/myModule","value":"s"}]`, values.ErrInvalidSection,
			`module "my-module": /myModule: invalid values section: want a map or a list, got the string "s"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			next, _, err := s.WithValuesPatch(valuestest.Patch(t, c.patch))
			if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("err = %v, want %v containing %q", err, c.want, c.msg)
			}
			assertJSON(t, "values kept", next.Values(), `[1, 2]`)
		})
	}
}

// TestListSectionPatchesReplayOverNewConfig: the in-memory layer replays
// over a new ConfigMap list, and a replay that no longer fits is refused
// with the previous config kept.
func TestListSectionPatchesReplayOverNewConfig(t *testing.T) {
	s := listScope(t, "", "myModule: [1, 2]")
	s, _, err := s.WithValuesPatch(valuestest.Patch(t, `[{"op":"add","path":"/myModule/-","value":3},
		{"op":"replace","path":"/myModule/1","value":"b"}]`))
	if err != nil {
		t.Fatal(err)
	}
	next, err := s.WithConfig([]any{"x", "y", "z"})
	if err != nil {
		t.Fatal(err)
	}
	assertJSON(t, "values", next.Values(), `["x", "b", "z", 3]`)
	assertJSON(t, "config values", next.ConfigValues(), `["x", "y", "z"]`)
	if _, err := s.WithConfig([]any{}); !errors.Is(err, values.ErrPathNotFound) {
		t.Errorf("replay over an empty list: %v", err)
	}
}

// TestListSectionConfigPatch: a hook's config patch builds or edits a list
// in the ConfigMap layer.
func TestListSectionConfigPatch(t *testing.T) {
	s := listScope(t, "", "myModule: [1, 2]")
	s, err := s.WithConfigPatch(valuestest.Patch(t, `[{"op":"add","path":"/myModule","value":["a"]}]`))
	if err != nil {
		t.Fatal(err)
	}
	s, err = s.WithConfigPatch(valuestest.Patch(t, `[{"op":"add","path":"/myModule/-","value":"b"}]`))
	if err != nil {
		t.Fatal(err)
	}
	assertJSON(t, "config values", s.ConfigValues(), `["a", "b"]`)
	assertJSON(t, "values", s.Values(), `["a", "b"]`)
	s, err = s.WithConfigPatch(valuestest.Patch(t, `[{"op":"remove","path":"/myModule"}]`))
	if err != nil {
		t.Fatal(err)
	}
	assertJSON(t, "values after the ConfigMap key is removed", s.Values(), `[1, 2]`)
}

// TestListSectionViews: hooks, enabled scripts and helm get the list under
// the module key; an absent ConfigMap section is {} in $CONFIG_VALUES_PATH.
func TestListSectionViews(t *testing.T) {
	s := listScope(t, "", "myModule: [1, 2]")
	global := values.Snapshot{Key: values.GlobalKey, Values: map[string]any{"g": 1.0}}
	in := values.ModuleHookInput(global, s.Snapshot(), []string{"my-module"})
	assertJSON(t, "$VALUES_PATH", in.Values, `{"global": {"g": 1, "enabledModules": ["my-module"]}, "myModule": [1, 2]}`)
	assertJSON(t, "$CONFIG_VALUES_PATH", in.ConfigValues, `{"global": {}, "myModule": {}}`)
	assertJSON(t, "helm", values.HelmValues(global, s.Snapshot()), `{"global": {"g": 1}, "myModule": [1, 2]}`)
	s, err := s.WithConfig([]any{})
	if err != nil {
		t.Fatal(err)
	}
	in = values.ModuleHookInput(global, s.Snapshot(), nil)
	assertJSON(t, "$CONFIG_VALUES_PATH with an empty list", in.ConfigValues, `{"global": {}, "myModule": []}`)
	assertJSON(t, "$VALUES_PATH with an empty list", in.Values["myModule"], `[]`)
}

// TestListSectionDiff: a ConfigMap edit to or from a list is a module change;
// an absent key and an empty map are not told apart, an empty list is.
func TestListSectionDiff(t *testing.T) {
	cases := []struct {
		before, after map[string]string
		changed       bool
	}{
		{map[string]string{}, map[string]string{"myModule": "[]"}, true},
		{map[string]string{}, map[string]string{"myModule": "{}"}, false},
		{map[string]string{"myModule": "[1]"}, map[string]string{"myModule": "- 1"}, false},
		{map[string]string{"myModule": "[1]"}, map[string]string{"myModule": "[1, 2]"}, true},
		{map[string]string{"myModule": "[]"}, map[string]string{"myModule": "{}"}, true},
	}
	for _, c := range cases {
		change := values.Diff(parseConfigMap(t, c.before), parseConfigMap(t, c.after))
		if got := len(change.Modules) == 1; got != c.changed || change.Global || len(change.Enabled) != 0 {
			t.Errorf("%v -> %v: change %+v, want module changed %v", c.before, c.after, change, c.changed)
		}
	}
}

// TestGlobalSectionIsNeverAList: lists are for module sections only; global
// values get enabledModules added and must be a map.
func TestGlobalSectionIsNeverAList(t *testing.T) {
	g, err := values.NewGlobalScope(nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = g.WithConfig([]any{1.0})
	if !errors.Is(err, values.ErrInvalidSection) || !strings.Contains(err.Error(), "global: ConfigMap section: invalid values section: want a map, got a list") {
		t.Errorf("err = %v", err)
	}
	if _, err := values.ParseValuesFile("modules/values.yaml", []byte("global: [1]\n")); !errors.Is(err, values.ErrInvalidSection) {
		t.Errorf("values.yaml global list: %v", err)
	}
}
