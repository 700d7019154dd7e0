package operator

import (
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/messages"
)

// A reload that superseded a failing converge: the graph in flight is
// forgotten, a dropped delete is taken back (its module counts as enabled
// so the next discovery deletes it again if it is still disabled), and a
// dropped failing run is published for `module why`.
func TestConvergeSupersededTakesBackDeletes(t *testing.T) {
	core := NewCore(CoreOptions{})
	core.group = newRunGraph(parallelRun(9, "a", "b"), nil, 2)
	failing := messages.NewModuleRun("a", "converge")
	failing.Queue, failing.Group, failing.Attempts, failing.LastError = "parallel_queue_0", 9, 2, "beforeHelm failed"
	effects := core.Step(Superseded{Msg: messages.ConvergeSuperseded{Group: 9,
		By: messages.NewReloadAll(messages.ActivationReloadAll, "enabled flags changed in the ConfigMap"),
		Dropped: []messages.Task{{Kind: messages.TaskParallelModuleRun, ID: 9}, failing,
			{Kind: messages.TaskModuleDelete, Module: "gone"}}}}, Env{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	if core.group != nil {
		t.Fatalf("graph kept after it was superseded")
	}
	if !core.enabled["gone"] {
		t.Fatalf("dropped delete not taken back: enabled %v", core.enabled)
	}
	if len(effects) != 1 {
		t.Fatalf("effects %+v, want the converge published", effects)
	}
	s := effects[0].(PublishConverge).State.Superseded
	if len(s) != 1 || s["a"].By != "enabled flags changed in the ConfigMap" ||
		s["a"].Task != "parallel_queue_0:ModuleRun:a failing (beforeHelm failed)" {
		t.Fatalf("superseded notes %+v", s)
	}
}
