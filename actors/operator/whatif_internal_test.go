package operator

import (
	"reflect"
	"testing"

	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/values"
)

// PlanWhatIf is planConverge from outside: the same tasks, with the reason
// of each delete naming the layer that disabled the module.
func TestPlanWhatIf(t *testing.T) {
	defs := []layout.Definition{def(t, "001-a", ""), def(t, "002-b", ""), def(t, "003-c", "")}
	config := values.Sections{Enabled: map[string]bool{"c": false}}
	cases := []struct {
		name    string
		w       WhatIf
		tasks   []string
		reasons map[string]string
	}{
		{name: "nothing changes", w: WhatIf{Enabled: []string{"a", "b", "c"}, WasEnabled: set([]string{"a", "b", "c"})},
			tasks: []string{"run a", "run b", "run c"}},
		{name: "disabled by script and by flag", w: WhatIf{Enabled: []string{"a"}, ByScript: map[string]bool{"b": true},
			Config: config, WasEnabled: set([]string{"a", "b", "c"})},
			tasks:   []string{"run a", "delete b", "delete c"},
			reasons: map[string]string{"b": "disabled by its enabled script", "c": "disabled in ConfigMap key cEnabled"}},
		{name: "skipped and purged", w: WhatIf{Enabled: []string{"a"}, WasEnabled: set([]string{"b"}),
			Skipped: func(n string) bool { return n == "b" }, Owned: []string{"gone"}, All: []string{"gone"}},
			tasks: []string{"run a", "purge gone"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.w.Modules = defs
			tasks := PlanWhatIf(tc.w)
			if got := planned(tasks); !reflect.DeepEqual(got, tc.tasks) {
				t.Fatalf("tasks %v, want %v", got, tc.tasks)
			}
			for _, task := range tasks {
				if want, ok := tc.reasons[task.Module]; ok && task.Reason != want {
					t.Errorf("%s: reason %q, want %q", task.Module, task.Reason, want)
				}
			}
		})
	}
}
