package values_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/addon-actors/addon-operator/values"
)

// TestMarshalDocumentIsJSONMarshal holds MarshalDocument to encoding/json's
// bytes, for what hooks get: keys that sort, need escaping or are not
// ASCII, nested maps and lists, nil and empty sections, and the enabled
// modules as the list of strings encoding/json writes for a []any.
func TestMarshalDocumentIsJSONMarshal(t *testing.T) {
	names := make([]string, 0, 1003)
	for i := range 1000 {
		names = append(names, fmt.Sprintf("module-%04d", i))
	}
	names = append(names, `odd"<&>\name`, "ünï\u2028code", "bad\xffutf8")
	global := values.Snapshot{Key: "global", Values: map[string]any{
		"zeta": 1.5, "alpha": []any{"x", map[string]any{"b": nil, "a": true}}, "<html>": "a&b",
		"nested": map[string]any{"deep": map[string]any{"z": "1", "y": []any{}}}, "Upper": "é",
	}, Config: map[string]any{"alpha": "c"}}
	cases := map[string]values.HookInput{
		"module":       values.ModuleHookInput(global, values.Snapshot{Key: "someModule", Values: map[string]any{"k": "v"}}, names),
		"list section": values.ModuleHookInput(global, values.Snapshot{Key: "listModule", Values: []any{"a", 2.0}}, names[:3]),
		"none enabled": values.ModuleHookInput(values.Snapshot{Key: "global"}, values.Snapshot{Key: "m"}, nil),
		"global":       values.GlobalHookInput(global),
	}
	for name, in := range cases {
		for part, doc := range map[string]map[string]any{"values": in.Values, "config": in.ConfigValues} {
			got, err := values.MarshalDocument(doc)
			if err != nil {
				t.Fatalf("%s %s: %v", name, part, err)
			}
			want, err := json.Marshal(doc)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s %s:\n got %s\nwant %s", name, part, got, want)
			}
		}
	}
	// The list as it was before EnabledList: a []any of the names.
	in := values.ModuleHookInput(global, values.Snapshot{Key: "m"}, names)
	before := map[string]any{"global": values.WithEnabledModules(global.Values, names), "m": in.Values["m"]}
	got, err := values.MarshalDocument(in.Values)
	if err != nil {
		t.Fatal(err)
	}
	if want := mustMarshal(t, before); !bytes.Equal(got, want) {
		t.Errorf("enabledModules as an EnabledList:\n got %s\nwant %s (a []any of the same names)", got, want)
	}
}

func TestMarshalDocumentNamesTheKeyThatFails(t *testing.T) {
	_, err := values.MarshalDocument(map[string]any{"global": map[string]any{"bad": func() {}}})
	if err == nil || !bytes.Contains([]byte(err.Error()), []byte(`"global"`)) || !bytes.Contains([]byte(err.Error()), []byte(`"bad"`)) {
		t.Fatalf("want an error naming global and bad, got %v", err)
	}
}

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
