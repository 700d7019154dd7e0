package whatif

import (
	"testing"

	"github.com/addon-actors/addon-operator/board"
)

// A plan says what applying it does for a stalled module: a values change
// runs it at once, none leaves it stalled; nothing for a module that is
// not stalled.
func TestStalledReason(t *testing.T) {
	stalled := board.ModuleState{Stalled: true, LastError: "helm upgrade: boom"}
	changed := ModulePlan{ValuesChange: ValuesChange{Diff: "- a\n+ b\n"}}
	for _, tc := range []struct {
		name string
		st   board.ModuleState
		m    ModulePlan
		want string
	}{
		{"not stalled", board.ModuleState{}, changed, ""},
		{"stalled, values change", stalled, changed, "stalled: its values change, so its run replaces the stalled one and starts at once"},
		{"stalled, nothing changes", stalled, ModulePlan{},
			"stalled: nothing changes for it, so it stays stalled (its last error: helm upgrade: boom)"},
	} {
		if got := stalledReason(tc.st, tc.m); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	if got := withReason("in maintenance", "stalled: x"); got != "in maintenance; stalled: x" {
		t.Errorf("withReason = %q", got)
	}
}
