package moduleobjects_test

import (
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/actors/moduleobjects"
	"github.com/addon-actors/addon-operator/moduleobject"
	"github.com/addon-actors/addon-operator/test/actortest"
)

func annotated(name, reconcile, reset string) moduleobjects.Annotated {
	return moduleobjects.Annotated{Name: name, ReconcileAt: moduleobjects.Token{Value: reconcile, Set: reconcile != "-"},
		ResetAt: moduleobjects.Token{Value: reset, Set: reset != "-"}}
}

// leadingWith is a core that leads with object a as listed (its status
// from in, with the values handled) and its module on the board.
func leadingWith(t *testing.T, in moduleobject.Input, handledReconcile string) harnessOf {
	_, h := harness(t)
	st := moduleobject.Compute(in, moduleobject.Status{}, 1, t0)
	st.LastHandledReconcileAt = handledReconcile
	h.Expect(moduleobjects.Leading{Existing: map[string]moduleobjects.Existing{"a": {Generation: 1, Status: &st}}})
	h.Step(moduleobjects.Published{Inputs: []moduleobject.Input{in}, Converged: true}) // its Events are not ours
	return h
}

type harnessOf = actortest.Harness[moduleobjects.Event, moduleobjects.Effect]

// An annotation's new value asks the operator once; the value is echoed
// in the status only after the operator took it; the same value again (a
// restart: compared with the status as listed) asks nothing; an empty
// value is ignored with one Warning Event; a disabled module has nothing
// to run (a Warning Event, the value handled).
func TestAnnotationsAskTheOperator(t *testing.T) {
	cases := []struct {
		name    string
		in      moduleobject.Input
		handled string // lastHandledReconcileAt as listed
		ev      moduleobjects.Annotated
		want    []string
		echo    string // lastHandledReconcileAt written after RunAsked, "" for no write
		phase   string // the phase written with it
	}{
		{name: "reconcile-at, a new value", in: ready("a"), ev: annotated("a", "1", "-"),
			want: []string{"ask a force=true reset=false"}, echo: "1", phase: "Ready"},
		{name: "reconcile-at, the value handled before a restart", in: ready("a"), handled: "1",
			ev: annotated("a", "1", "-")},
		{name: "reset-at of a failing module", in: failing("a"), ev: annotated("a", "-", "r1"),
			want: []string{"ask a force=false reset=true"}},
		{name: "both at once", in: failing("a"), handled: "1", ev: annotated("a", "2", "r1"),
			want: []string{"ask a force=true reset=true"}, echo: "2", phase: "Retrying"},
		{name: "an empty value", in: ready("a"), ev: annotated("a", " ", "-"), want: []string{"event a InvalidAnnotation"}},
		{name: "a disabled module", in: moduleobject.Input{Name: "a", Decided: true}, ev: annotated("a", "1", "-"),
			want: []string{"event a RunNotQueued", "write a Disabled"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := leadingWith(t, tc.in, tc.handled)
			h.Expect(tc.ev, tc.want...)
			h.Expect(tc.ev) // the same value again, or while the operator has not answered: nothing
			if tc.echo == "" {
				return
			}
			w := h.Expect(moduleobjects.RunAsked{Name: "a", Why: "x"}, "event a RunRequested", "write a "+tc.phase)
			if got := w[1].(moduleobjects.WriteStatus).Status.LastHandledReconcileAt; got != tc.echo {
				t.Fatalf("lastHandledReconcileAt = %q, want %q", got, tc.echo)
			}
			h.Expect(tc.ev)
		})
	}
}

// A request the operator did not take is asked again after RetryDelay;
// an annotation seen before the lead waits for the listed status.
func TestAnnotationsAskAgain(t *testing.T) {
	s, h := harness(t)
	h.Expect(moduleobjects.Published{Inputs: []moduleobject.Input{ready("a")}, Converged: true})
	h.Expect(annotated("a", "1", "-"))
	st := moduleobject.Compute(ready("a"), moduleobject.Status{}, 1, t0)
	h.Expect(moduleobjects.Leading{Existing: map[string]moduleobjects.Existing{"a": {Generation: 1, Status: &st}}},
		"ask a force=true reset=false")
	h.Expect(moduleobjects.RunAsked{Name: "a", Err: "timeout"}, "timer a 1s")
	s.now = s.now.Add(time.Second)
	h.Expect(moduleobjects.Tick{Name: "a"}, "ask a force=true reset=false")
}
