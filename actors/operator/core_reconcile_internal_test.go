package operator

import (
	"testing"

	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/messages"
)

// A run asked on a Module object queues the module's run (forced for a
// reconcile, not for a reset), a reload for "global" once start-up has
// applied the config, and nothing for a module the last discovery did not
// enable or that the operator does not know.
func TestReconcileAsked(t *testing.T) {
	a, b := enabledDef(t, "001-a", true), enabledDef(t, "002-b", true)
	cases := []struct {
		name   string
		msg    messages.ReconcileModule
		booted bool
		want   []string
		force  bool
	}{
		{name: "reconcile of an enabled module", msg: messages.ReconcileModule{Module: "a", Force: true},
			want: []string{"Enqueue ModuleRun a"}, force: true},
		{name: "reset of an enabled module", msg: messages.ReconcileModule{Module: "a", Reset: true},
			want: []string{"Enqueue ModuleRun a"}},
		{name: "a module not enabled", msg: messages.ReconcileModule{Module: "b", Force: true}},
		{name: "an unknown module", msg: messages.ReconcileModule{Module: "zz", Reset: true}},
		{name: "global before start-up applied the config", msg: messages.ReconcileModule{Module: "global", Force: true}},
		{name: "global", msg: messages.ReconcileModule{Module: "global", Force: true}, booted: true,
			want: []string{"Enqueue ReloadAllModules"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newCoreTest(t, CoreOptions{Modules: []layout.Definition{a, b}, Enabled: []string{"a"}})
			h.core.boot.applied = tc.booted
			effects := h.Expect(ReconcileAsked{Msg: tc.msg}, tc.want...)
			for _, e := range effects {
				if q, ok := e.(Enqueue); ok && q.Tasks[0].Kind == messages.TaskModuleRun && q.Tasks[0].Force != tc.force {
					t.Errorf("module run forced = %v, want %v", q.Tasks[0].Force, tc.force)
				}
			}
		})
	}
}
