package values

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestParseValuesFile(t *testing.T) {
	s, err := ParseValuesFile("modules/values.yaml", []byte(`
global:
  a: 1
someModule:
  b: [1, 2]
nullModule:
offModule: false
offModuleEnabled: true
onModuleEnabled: true
Weird-Key: 1
`))
	if err != nil {
		t.Fatal(err)
	}
	if !Equal(s.Global, map[string]any{"a": 1.0}) || !Equal(s.Modules, map[string]any{
		"someModule": map[string]any{"b": []any{1.0, 2.0}}, "nullModule": map[string]any{}}) {
		t.Errorf("sections %+v", s)
	}
	if len(s.Enabled) != 2 || s.Enabled["offModule"] || !s.Enabled["onModule"] {
		t.Errorf("Enabled = %v", s.Enabled)
	}
	if strings.Join(s.Unknown, ",") != "Weird-Key" {
		t.Errorf("Unknown = %v", s.Unknown)
	}
}

func TestParseValuesFileErrors(t *testing.T) {
	_, err := ParseValuesFile("modules/001-a/values.yaml", []byte("a: [1\n"))
	if !errors.Is(err, ErrInvalidSection) || !strings.Contains(err.Error(), "modules/001-a/values.yaml") {
		t.Errorf("bad YAML: %v", err)
	}
	_, err = ParseValuesFile("modules/values.yaml", []byte("global: [1]\na: 5\naEnabled: \"yes\"\n"))
	for _, want := range []string{`modules/values.yaml: key "a": invalid values section: want a map or a list, got the number 5`,
		`key "aEnabled": invalid values section: want true or false, got the string "yes"`,
		`key "global": invalid values section: want a map, got a list`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("err %v lacks %q", err, want)
		}
	}
	if _, err := ParseValuesFile("empty.yaml", nil); err != nil {
		t.Errorf("an empty file: %v", err)
	}
}

func TestViews(t *testing.T) {
	global := Snapshot{Key: GlobalKey, Config: map[string]any{"c": 1.0}, Values: map[string]any{"v": 1.0}}
	module := Snapshot{Key: "m", Values: map[string]any{"x": true}}
	g := GlobalHookInput(global)
	if _, ok := g.Values[GlobalKey].(map[string]any)[EnabledModulesKey]; ok {
		t.Error("global hooks get no enabledModules")
	}
	in := ModuleHookInput(global, module, []string{"a", "m"})
	if !Equal(in.ConfigValues, map[string]any{"global": map[string]any{"c": 1.0}, "m": map[string]any{}}) {
		t.Errorf("config %v", in.ConfigValues)
	}
	want := map[string]any{"global": map[string]any{"v": 1.0, "enabledModules": []any{"a", "m"}}, "m": map[string]any{"x": true}}
	// The enabled modules are an EnabledList (written without reflection):
	// what a hook reads is the document, compared as JSON.
	got, err := MarshalDocument(in.Values)
	if wantJSON, _ := json.Marshal(want); err != nil || string(got) != string(wantJSON) {
		t.Errorf("values %s (%v), want %s", got, err, wantJSON)
	}
	if _, ok := global.Values.(map[string]any)[EnabledModulesKey]; ok {
		t.Error("the snapshot was changed")
	}
	helm := HelmValues(global, module)
	if !Equal(helm, map[string]any{"global": map[string]any{"v": 1.0}, "m": map[string]any{"x": true}}) {
		t.Errorf("helm %v", helm)
	}
}

func TestScopeChangeDetection(t *testing.T) {
	names, _ := ParseModuleDir("001-m")
	s, err := NewModuleScope(names, nil)
	if err != nil {
		t.Fatal(err)
	}
	before := s.Checksum()
	s, changed, err := s.WithValuesPatch(mustPatch(t, `[{"op":"add","path":"/m/a","value":1}]`))
	if err != nil || !changed || s.Checksum() == before {
		t.Fatalf("first patch: changed %v, %v", changed, err)
	}
	s, changed, err = s.WithValuesPatch(mustPatch(t, `[{"op":"add","path":"/m/a","value":1}]`))
	if err != nil || changed {
		t.Errorf("same values again: changed %v, %v", changed, err)
	}
	if s.Patches().Len() != 1 {
		t.Errorf("layer %v", s.Patches().Operations())
	}
	// A patch to another root key would not pass hookexec's scope check; if
	// one did, it is refused here rather than taken as values.
	if _, _, err := s.WithValuesPatch(mustPatch(t, `[{"op":"add","path":"/other/a","value":1}]`)); err == nil {
		t.Error("a patch outside the scope's key was taken")
	}
	if _, _, err := s.WithValuesPatch(mustPatch(t, `[{"op":"add","path":"/m","value":5}]`)); !errors.Is(err, ErrInvalidSection) {
		t.Errorf("section replaced by a number: %v", err)
	}
	g, err := NewGlobalScope(nil)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = g.WithValuesPatch(mustPatch(t, `[{"op":"add","path":"/global","value":[1]}]`))
	if !errors.Is(err, ErrInvalidSection) || !strings.Contains(err.Error(), "want a map, got a list") {
		t.Errorf("global section replaced by a list: %v", err)
	}
}
