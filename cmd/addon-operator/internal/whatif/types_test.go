package whatif

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/chartrun/manifestdiff"
	"github.com/addon-actors/addon-operator/values/mask"
)

func TestPlanChanged(t *testing.T) {
	run := func(m ModulePlan) Plan { m.Action = ActionRun; return Plan{Modules: []ModulePlan{m}} }
	tests := []struct {
		name string
		plan Plan
		want bool
	}{
		{name: "runs with nothing new", plan: run(ModulePlan{Name: "a"}), want: false},
		{name: "module enabled", plan: Plan{Enable: []Toggle{{Module: "a"}}}, want: true},
		{name: "module deleted", plan: Plan{Modules: []ModulePlan{{Name: "a", Action: ActionDelete}}}, want: true},
		{name: "release purged", plan: Plan{Purges: []Toggle{{Module: "gone"}}}, want: true},
		{name: "global values", plan: Plan{Global: ValuesChange{Diff: "-a\n+b\n"}}, want: true},
		{name: "module values only", plan: run(ModulePlan{ValuesChange: ValuesChange{Diff: "x"}}), want: true},
		{name: "an object changed", plan: run(ModulePlan{Objects: []manifestdiff.Change{{Object: "ConfigMap/a"}}}), want: true},
	}
	for _, tc := range tests {
		if got := tc.plan.changed(); got != tc.want {
			t.Errorf("%s: changed %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestValuesChange(t *testing.T) {
	same := valuesChange("web", map[string]any{"r": 1.0}, map[string]any{"r": 1.0}, nil, nil)
	if same.Diff != "" {
		t.Errorf("equal values have a diff: %q", same.Diff)
	}
	c := valuesChange("web", map[string]any{"r": 1.0}, map[string]any{"r": 3.0}, nil, nil)
	for _, s := range []string{"--- web (in force)\n", "+++ web (candidate)\n", "-  r: 1\n", "+  r: 3\n"} {
		if !strings.Contains(c.Diff, s) {
			t.Errorf("diff lacks %q:\n%s", s, c.Diff)
		}
	}
}

// A password setting shows as its mask on both sides of the diff and in
// the candidate values, and so does its value where a hook copied it.
func TestValuesChangeMasksPasswords(t *testing.T) {
	paths := mask.Paths{{"db", "password"}}
	secrets := mask.Secrets{"pw-marker-1", "pw-marker-2"}
	current := map[string]any{"db": map[string]any{"password": "pw-marker-1"}, "copy": "pw-marker-1"}
	next := map[string]any{"db": map[string]any{"password": "pw-marker-2"}, "copy": "pw-marker-1"}
	c := valuesChange("web", current, next, paths, secrets)
	raw, _ := json.Marshal(c)
	if strings.Contains(string(raw), "pw-marker") {
		t.Fatalf("the change shows a password: %s", raw)
	}
	for _, s := range []string{"-    password: " + mask.String("pw-marker-1"), "+    password: " + mask.String("pw-marker-2")} {
		if !strings.Contains(c.Diff, s) {
			t.Errorf("diff lacks %q:\n%s", s, c.Diff)
		}
	}
	if next["db"].(map[string]any)["password"] != "pw-marker-2" {
		t.Fatal("the candidate values were changed")
	}
}
