package whatif

import (
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/chartrun/manifestdiff"
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
	same := valuesChange("web", map[string]any{"r": 1.0}, map[string]any{"r": 1.0})
	if same.Diff != "" {
		t.Errorf("equal values have a diff: %q", same.Diff)
	}
	c := valuesChange("web", map[string]any{"r": 1.0}, map[string]any{"r": 3.0})
	for _, s := range []string{"--- web (in force)\n", "+++ web (candidate)\n", "-  r: 1\n", "+  r: 3\n"} {
		if !strings.Contains(c.Diff, s) {
			t.Errorf("diff lacks %q:\n%s", s, c.Diff)
		}
	}
}
