package configmap_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/values"
	"github.com/addon-actors/addon-operator/values/configmap"
	"github.com/addon-actors/addon-operator/values/valuestest"
)

func TestParse(t *testing.T) {
	s, err := configmap.Parse(map[string]string{
		"global":            "a: 1\nb: [x]\n",
		"someModule":        "param: v\n",
		"emptyModule":       "",
		"listModule":        "- a\n- 2\n",
		"emptyListModule":   "[]",
		"offModule":         " false\n",
		"offModuleEnabled":  "true", // a "false" section wins
		"someModuleEnabled": " true\n",
		"otherEnabled":      "false",
		"some-module":       "not: [parsed",
		"README":            "free text: [",
	})
	if err != nil {
		t.Fatal(err)
	}
	if !values.Equal(s.Global, map[string]any{"a": 1.0, "b": []any{"x"}}) {
		t.Errorf("Global = %v", s.Global)
	}
	wantModules := map[string]any{"someModule": map[string]any{"param": "v"}, "emptyModule": map[string]any{},
		"listModule": []any{"a", 2.0}, "emptyListModule": []any{}}
	if !values.Equal(s.Modules, wantModules) {
		t.Errorf("Modules = %v", s.Modules)
	}
	wantEnabled := map[string]bool{"offModule": false, "someModule": true, "other": false}
	if len(s.Enabled) != len(wantEnabled) {
		t.Errorf("Enabled = %v", s.Enabled)
	}
	for k, v := range wantEnabled {
		if got, ok := s.Enabled[k]; !ok || got != v {
			t.Errorf("Enabled[%s] = %v, %v; want %v", k, got, ok, v)
		}
	}
	if strings.Join(s.Unknown, ",") != "README,some-module" {
		t.Errorf("Unknown = %v", s.Unknown)
	}
}

func TestParseErrorsNameEveryKey(t *testing.T) {
	_, err := configmap.Parse(map[string]string{
		"global":       "a: [1\n",
		"scalarModule": "5",
		"xEnabled":     "yes",
		"goodModule":   "a: 1",
	})
	if !errors.Is(err, values.ErrInvalidSection) {
		t.Fatalf("err = %v", err)
	}
	for _, want := range []string{`"global"`,
		`key "scalarModule": invalid values section: want a map or a list, got the number 5`,
		`key "xEnabled": invalid values section: want "true" or "false", got "yes"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "goodModule") {
		t.Errorf("error names a good key: %v", err)
	}
}

func TestParseEmpty(t *testing.T) {
	s, err := configmap.Parse(nil)
	if err != nil || s.Global != nil || len(s.Modules) != 0 || len(s.Enabled) != 0 {
		t.Errorf("Parse(nil) = %+v, %v", s, err)
	}
}

func TestDiffIgnoresFormatting(t *testing.T) {
	before := map[string]string{
		"global":     "a: 1\nb:\n  c: [1, 2]\n",
		"someModule": "x: 'v'\ny: true\n",
		"aEnabled":   "true",
		"README":     "one",
	}
	after := map[string]string{
		"global":     "b: {c: [1,2]}\na: 1.0\n# a comment\n",
		"someModule": "y: true\nx: \"v\"\n",
		"aEnabled":   "true\n",
		"README":     "two",
	}
	if c := diff(t, before, after); !c.IsEmpty() {
		t.Errorf("formatting-only edit reported as %+v", c)
	}
}

func TestDiff(t *testing.T) {
	base := map[string]string{"global": "a: 1\n", "m1": "x: 1\n", "m2": "x: 1\n", "m3": "false", "m1Enabled": "true"}
	cases := []struct {
		name string
		edit map[string]string
		want values.Change
	}{
		{"one module", map[string]string{"m2": "x: 2\n"}, values.Change{Modules: []string{"m2"}}},
		{"global", map[string]string{"global": "a: 2\n"}, values.Change{Global: true}},
		{"enabled flag", map[string]string{"m1Enabled": "false"}, values.Change{Enabled: []string{"m1"}}},
		{"false section to values", map[string]string{"m3": "x: 1\n"}, values.Change{Enabled: []string{"m3"}, Modules: []string{"m3"}}},
		{"new module section", map[string]string{"m4": "x: 1\n"}, values.Change{Modules: []string{"m4"}}},
		{"empty section equals no section", map[string]string{"m5": "{}"}, values.Change{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			after := map[string]string{}
			for k, v := range base {
				after[k] = v
			}
			for k, v := range c.edit {
				after[k] = v
			}
			got := diff(t, base, after)
			if got.Global != c.want.Global || strings.Join(got.Enabled, ",") != strings.Join(c.want.Enabled, ",") ||
				strings.Join(got.Modules, ",") != strings.Join(c.want.Modules, ",") {
				t.Errorf("got %+v, want %+v", got, c.want)
			}
		})
	}
}

func diff(t *testing.T, before, after map[string]string) values.Change {
	t.Helper()
	b, err := configmap.Parse(before)
	if err != nil {
		t.Fatal(err)
	}
	a, err := configmap.Parse(after)
	if err != nil {
		t.Fatal(err)
	}
	return values.Diff(b, a)
}

func TestApplyPatch(t *testing.T) {
	data := map[string]string{
		"global":     "# keep my comment\nparam1: 200\n",
		"someModule": "param1: \"Long string\"\n",
		"README":     "not: [yaml",
		"brokenMod":  "a: [",
	}
	cases := []struct {
		name, patch string
		want        map[string]string
		changed     bool
	}{
		{"add to a section", `[{"op":"add","path":"/someModule/param3","value":"newValue"}]`,
			map[string]string{"someModule": "param1: Long string\nparam3: newValue\n"}, true},
		{"create a section", `[{"op":"add","path":"/newModule/password","value":"s3cr3t"}]`,
			map[string]string{"newModule": "password: s3cr3t\n"}, true},
		{"remove the last key keeps an empty section", `[{"op":"remove","path":"/someModule/param1"}]`,
			map[string]string{"someModule": "{}\n"}, true},
		{"remove a section", `[{"op":"remove","path":"/someModule"}]`, map[string]string{"someModule": ""}, true},
		{"enable a module", `[{"op":"add","path":"/newModuleEnabled","value":true}]`, map[string]string{"newModuleEnabled": "true"}, true},
		{"disable by section", `[{"op":"add","path":"/someModule","value":"false"}]`, map[string]string{"someModule": "false"}, true},
		{"no-op leaves bytes alone", `[{"op":"add","path":"/global/param1","value":200},{"op":"remove","path":"/global/none"}]`, nil, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, changed, err := configmap.ApplyPatch(data, valuestest.Patch(t, c.patch))
			if err != nil || changed != c.changed {
				t.Fatalf("changed %v, err %v; want changed %v", changed, err, c.changed)
			}
			want := map[string]string{}
			for k, v := range data {
				want[k] = v
			}
			for k, v := range c.want {
				if v == "" {
					delete(want, k)
				} else {
					want[k] = v
				}
			}
			if len(got) != len(want) {
				t.Errorf("got %q, want %q", got, want)
			}
			for k, v := range want {
				if got[k] != v {
					t.Errorf("key %s = %q, want %q", k, got[k], v)
				}
			}
			if data["global"] != "# keep my comment\nparam1: 200\n" || len(data) != 4 {
				t.Error("ApplyPatch changed its input")
			}
		})
	}
}

func TestApplyPatchToMissingConfigMap(t *testing.T) {
	got, changed, err := configmap.ApplyPatch(nil, valuestest.Patch(t, `[{"op":"add","path":"/global/a","value":{"b":1}}]`))
	if err != nil || !changed || len(got) != 1 || got["global"] != "a:\n  b: 1\n" {
		t.Errorf("got %q, %v, %v", got, changed, err)
	}
}

func TestApplyPatchErrors(t *testing.T) {
	data := map[string]string{"brokenModule": "a: [", "offModule": "false", "xEnabled": "maybe"}
	cases := []struct {
		name, patch string
		want        error
		msg         string
	}{
		{"unknown key", `[{"op":"add","path":"/some-module/a","value":1}]`, configmap.ErrUnknownKey, `key "some-module"`},
		{"broken section it touches", `[{"op":"add","path":"/brokenModule/b","value":1}]`, values.ErrInvalidSection, `ConfigMap key "brokenModule"`},
		{"broken enabled key it touches", `[{"op":"remove","path":"/xEnabled"}]`, values.ErrInvalidSection, `ConfigMap key "xEnabled"`},
		{"into a false section", `[{"op":"add","path":"/offModule/a","value":1}]`, values.ErrPathNotFound, "/offModule is the boolean false"},
		{"enabled key not a boolean", `[{"op":"add","path":"/newEnabled","value":"yes"}]`, values.ErrInvalidSection, `key "newEnabled"`},
		{"global as a list", `[{"op":"add","path":"/global","value":[1]}]`, values.ErrInvalidSection, "want a map"},
		{"dotted path", `[{"op":"add","path":"global.a","value":1}]`, values.ErrInvalidPath, `"/global/a"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := configmap.ApplyPatch(data, valuestest.Patch(t, c.patch))
			if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("err = %v, want %v containing %q", err, c.want, c.msg)
			}
		})
	}
	// A broken key the patch does not touch is no obstacle.
	if _, _, err := configmap.ApplyPatch(data, valuestest.Patch(t, `[{"op":"add","path":"/global/a","value":1}]`)); err != nil {
		t.Errorf("untouched broken key: %v", err)
	}
}

func TestCacheParsesOnlyChangedKeys(t *testing.T) {
	var c configmap.Cache
	first, err := c.Parse(map[string]string{"global": "a: 1\n", "m": "x: 1\n", "n": "y: 1\n"})
	if err != nil {
		t.Fatal(err)
	}
	second, err := c.Parse(map[string]string{"global": "a: 1\n", "m": "x: 2\n", "n": "y: 1\n"})
	if err != nil {
		t.Fatal(err)
	}
	if c := values.Diff(first, second); c.Global || strings.Join(c.Modules, ",") != "m" {
		t.Errorf("Diff = %+v", c)
	}
	// A bad edit is reported, and the next good data parses again.
	if _, err := c.Parse(map[string]string{"m": "x: [\n"}); err == nil {
		t.Error("want an error")
	}
	third, err := c.Parse(map[string]string{"m": "x: 2\n"})
	if err != nil || !values.Equal(third.Modules["m"], map[string]any{"x": 2.0}) {
		t.Errorf("got %v, %v", third.Modules, err)
	}
}

// TestApplyPatchRoundTripsTrickyStrings: strings that YAML would read as
// something else are written so that they read back as strings.
func TestApplyPatchRoundTripsTrickyStrings(t *testing.T) {
	patch := valuestest.Patch(t, `[{"op":"add","path":"/m/v","value":{"yes":"yes","on":"on","n":"1.0","null":"null","e":"","t":"true","x":"0x1F","d":"2024-01-01","big":12345678901}}]`)
	data, _, err := configmap.ApplyPatch(nil, patch)
	if err != nil {
		t.Fatal(err)
	}
	s, err := configmap.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"v": map[string]any{"yes": "yes", "on": "on", "n": "1.0", "null": "null", "e": "", "t": "true",
		"x": "0x1F", "d": "2024-01-01", "big": 12345678901.0}}
	if !values.Equal(s.Modules["m"], want) {
		t.Errorf("read back %v from %q", s.Modules["m"], data["m"])
	}
}

// TestApplyPatchListSection: a module section that is a list is patched and
// written back as a YAML list; global cannot become one.
func TestApplyPatchListSection(t *testing.T) {
	cases := []struct {
		name, data, patch, want string
	}{
		{"append", "- 1\n", `[{"op":"add","path":"/myModule/-","value":2}]`, "- 1\n- 2\n"},
		{"replace an item", "[a, b]", `[{"op":"replace","path":"/myModule/1","value":"c"}]`, "- a\n- c\n"},
		{"set a list", "", `[{"op":"add","path":"/myModule","value":[]}]`, "[]\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data := map[string]string{}
			if c.data != "" {
				data["myModule"] = c.data
			}
			got, changed, err := configmap.ApplyPatch(data, valuestest.Patch(t, c.patch))
			if err != nil || !changed || got["myModule"] != c.want {
				t.Fatalf("got %q, %v, %v; want %q", got["myModule"], changed, err, c.want)
			}
			s, err := configmap.Parse(got)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := s.Modules["myModule"].([]any); !ok {
				t.Errorf("read back %#v", s.Modules["myModule"])
			}
		})
	}
}
