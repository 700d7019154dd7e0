package moduleobjects_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/actors/moduleobjects"
	"github.com/addon-actors/addon-operator/moduleobject"
	"github.com/addon-actors/addon-operator/test/actortest"
)

var t0 = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

func describe(e moduleobjects.Effect) string {
	switch e := e.(type) {
	case moduleobjects.WriteStatus:
		return fmt.Sprintf("write %s %s", e.Name, e.Status.Phase)
	case moduleobjects.CreateObject:
		return fmt.Sprintf("create %s %s", e.Name, e.Status.Phase)
	case moduleobjects.DeleteObject:
		return "delete " + e.Name
	case moduleobjects.EmitEvent:
		return fmt.Sprintf("event %s %s", e.Name, e.Event.Reason)
	case moduleobjects.ArmTimer:
		return fmt.Sprintf("timer %s %s", e.Name, e.After)
	case moduleobjects.Log:
		return ""
	case moduleobjects.RequestRun:
		return fmt.Sprintf("ask %s force=%v reset=%v", e.Name, e.Force, e.Reset)
	}
	panic(actortest.TypeName(e))
}

// stepper drives a core at a time the test moves.
type stepper struct {
	core *moduleobjects.Core
	now  time.Time
}

func harness(t *testing.T) (*stepper, actortest.Harness[moduleobjects.Event, moduleobjects.Effect]) {
	s := &stepper{core: moduleobjects.NewCore(), now: t0}
	return s, actortest.Harness[moduleobjects.Event, moduleobjects.Effect]{T: t, Describe: describe,
		Step: func(ev moduleobjects.Event) []moduleobjects.Effect {
			return s.core.Step(ev, moduleobjects.Env{Now: s.now})
		}}
}

func ready(name string) moduleobject.Input {
	return moduleobject.Input{Name: name, Decided: true, Enabled: true, Run: &moduleobject.Run{Kind: "ModuleRun",
		Started: t0, Ended: t0.Add(time.Second)}}
}

func running(name string) moduleobject.Input {
	return moduleobject.Input{Name: name, Decided: true, Enabled: true, Run: &moduleobject.Run{Kind: "ModuleRun", Started: t0}}
}

func failing(name string) moduleobject.Input {
	in := ready(name)
	in.Run.Err = "hook a failed"
	in.Retry = &moduleobject.Retry{Attempts: 1, LastError: "hook a failed", NextRetry: t0.Add(5 * time.Second)}
	return in
}

func written(name string, st moduleobject.Status) moduleobjects.Written {
	return moduleobjects.Written{Name: name, Generation: 1, Status: st}
}

// TestCreatesObjectsAndCoalesces: objects are created for every module,
// then a module's status is written at most once per second, the last
// state always.
func TestCreatesObjectsAndCoalesces(t *testing.T) {
	s, h := harness(t)
	h.Expect(moduleobjects.Published{Inputs: []moduleobject.Input{running("a")}, Converged: true})
	created := h.Expect(moduleobjects.Leading{}, "create a Running")
	h.Expect(written("a", created[0].(moduleobjects.CreateObject).Status))
	h.Expect(moduleobjects.Published{Inputs: []moduleobject.Input{failing("a")}, Converged: true},
		"event a RunFailed", "timer a 1s")
	h.Expect(moduleobjects.Published{Inputs: []moduleobject.Input{ready("a")}, Converged: true}, "event a Recovered")
	s.now = s.now.Add(time.Second)
	w := h.Expect(moduleobjects.Tick{Name: "a"}, "write a Ready")
	h.Expect(moduleobjects.Published{Inputs: []moduleobject.Input{running("a")}, Converged: true})
	h.Expect(written("a", w[0].(moduleobjects.WriteStatus).Status), "timer a 1s")
}

// TestColdConvergeWritesAfterIt: during a healthy first converge, the
// objects of modules that wait, run or are ready are not written, nor
// their Normal Events emitted; both follow its end: two writes per object
// (its creation and its status).
func TestColdConvergeWritesAfterIt(t *testing.T) {
	_, h := harness(t)
	h.Expect(moduleobjects.Leading{})
	h.Expect(moduleobjects.Published{Inputs: []moduleobject.Input{{Name: "a"}, {Name: "b"}}})
	installed := ready("a")
	installed.Release = moduleobject.Release{Name: "a", Revision: 1, Action: "installed", At: t0}
	h.Expect(moduleobjects.Published{Inputs: []moduleobject.Input{installed, running("b")}})
	h.Expect(moduleobjects.Published{Inputs: []moduleobject.Input{installed, ready("b")}, Converged: true},
		"event a ReleaseInstalled", "create a Ready", "create b Ready")
}

// TestAModuleThatHoldsTheConvergeWritesAll: a failing module holds the
// first converge up; its object, and all the others, are written at once.
func TestAModuleThatHoldsTheConvergeWritesAll(t *testing.T) {
	_, h := harness(t)
	h.Expect(moduleobjects.Leading{})
	installed := ready("a")
	installed.Release = moduleobject.Release{Name: "a", Revision: 1, Action: "installed", At: t0}
	h.Expect(moduleobjects.Published{Inputs: []moduleobject.Input{installed, running("b")}})
	h.Expect(moduleobjects.Published{Inputs: []moduleobject.Input{installed, failing("b")}},
		"event a ReleaseInstalled", "event b RunFailed", "create a Ready", "create b Retrying")
}

// TestNoWriteOnRestartWhereNothingChanged: objects whose status is what
// the module comes back to are not written; a module that only waits or
// runs before the first converge is done keeps its status.
func TestNoWriteOnRestartWhereNothingChanged(t *testing.T) {
	_, h := harness(t)
	before := moduleobject.Compute(ready("a"), moduleobject.Status{}, 1, t0.Add(-time.Hour))
	h.Expect(moduleobjects.Leading{Existing: map[string]moduleobjects.Existing{"a": {Generation: 1, Status: &before}}})
	h.Expect(moduleobjects.Published{Inputs: []moduleobject.Input{{Name: "a"}}})
	h.Expect(moduleobjects.Published{Inputs: []moduleobject.Input{running("a")}})
	h.Expect(moduleobjects.Published{Inputs: []moduleobject.Input{ready("a")}, Converged: true})
}

// TestDeletesAfterTheModuleLeft: an object whose module is not on the
// board is deleted only once the first converge is done.
func TestDeletesAfterTheModuleLeft(t *testing.T) {
	_, h := harness(t)
	st := moduleobject.Compute(ready("a"), moduleobject.Status{}, 1, t0)
	h.Expect(moduleobjects.Leading{Existing: map[string]moduleobjects.Existing{"gone": {Generation: 1, Status: &st}}})
	h.Expect(moduleobjects.Published{Inputs: nil})
	h.Expect(moduleobjects.Published{Inputs: nil, Converged: true}, "delete gone")
	h.Expect(moduleobjects.Deleted{Name: "gone"})
	h.Expect(moduleobjects.Published{Inputs: nil, Converged: true})
}

// TestOnlyTheLeaderWrites, and a failed write is retried after RetryDelay.
func TestOnlyTheLeaderWrites(t *testing.T) {
	s, h := harness(t)
	h.Expect(moduleobjects.Published{Inputs: []moduleobject.Input{ready("a")}, Converged: true})
	h.Expect(moduleobjects.Leading{}, "create a Ready")
	h.Expect(moduleobjects.WriteFailed{Name: "a", Op: "create", Err: "connection refused"}, "timer a 1s")
	h.Expect(moduleobjects.Published{Inputs: []moduleobject.Input{ready("a")}, Converged: true})
	s.now = s.now.Add(time.Second)
	h.Expect(moduleobjects.Tick{Name: "a"}, "create a Ready")
	h.Expect(moduleobjects.NotLeading{})
	h.Expect(moduleobjects.WriteFailed{Name: "a", Op: "create", Err: "x"}, "timer a 1s")
	h.Expect(moduleobjects.Tick{Name: "a"})
	h.Expect(moduleobjects.Published{Inputs: []moduleobject.Input{failing("a")}, Converged: true})
}

func TestStepCoversItsEvents(t *testing.T) {
	actortest.Covered(t, ".", map[string]actortest.Sealed{
		"Step":  {Dir: ".", Marker: "moduleObjectsEvent"},
		"apply": {Dir: ".", Marker: "moduleObjectsEffect"},
	})
}

// TestLeavesAnotherOperatorsObject: a create that finds the object
// labelled as another operator's logs once and leaves it: no retry, no
// write, no Event, whatever the module does next.
func TestLeavesAnotherOperatorsObject(t *testing.T) {
	_, h := harness(t)
	h.Expect(moduleobjects.Leading{})
	h.Expect(moduleobjects.Published{Inputs: []moduleobject.Input{ready("demo")}, Converged: true}, "create demo Ready")
	h.Expect(moduleobjects.WriteFailed{Name: "demo", Op: "create", Err: "belongs to ns b", Owner: "b"})
	h.Expect(moduleobjects.Published{Inputs: []moduleobject.Input{failing("demo")}, Converged: true})
	h.Expect(moduleobjects.Published{Inputs: nil, Converged: true})
}

// TestRecreatesADeletedObject: a status write that finds the object gone
// creates it again after RetryDelay.
func TestRecreatesADeletedObject(t *testing.T) {
	s, h := harness(t)
	h.Expect(moduleobjects.Leading{})
	created := h.Expect(moduleobjects.Published{Inputs: []moduleobject.Input{ready("a")}, Converged: true}, "create a Ready")
	h.Expect(written("a", created[0].(moduleobjects.CreateObject).Status))
	s.now = s.now.Add(time.Second)
	h.Expect(moduleobjects.Published{Inputs: []moduleobject.Input{failing("a")}, Converged: true}, "event a RunFailed", "write a Retrying")
	h.Expect(moduleobjects.WriteFailed{Name: "a", Op: "status", Err: "not found", Missing: true}, "timer a 1s")
	s.now = s.now.Add(time.Second)
	h.Expect(moduleobjects.Tick{Name: "a"}, "create a Retrying")
}
