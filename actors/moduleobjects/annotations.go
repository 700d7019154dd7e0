package moduleobjects

import (
	"log/slog"
	"strings"
	"time"

	"github.com/addon-actors/addon-operator/actors/step"
	"github.com/addon-actors/addon-operator/moduleobject"
)

// The annotations by which a user asks for a run on a Module object, as
// Flux's reconcile.fluxcd.io/requestedAt and resetAt: any new value asks
// once; the value handled is echoed in the status
// (lastHandledReconcileAt, lastHandledResetAt), so a value already handled
// does nothing, after a restart too.
const (
	// ReconcileAnnotation runs the module now, its release upgraded even
	// when it is up to date ("global": a reload of all modules).
	ReconcileAnnotation = "addon-operator.io/reconcile-at"
	// ResetAnnotation ends a failing run's backoff and runs the module now.
	ResetAnnotation = "addon-operator.io/reset-at"
)

// Token is an annotation's value; Set tells it is there at all.
type Token struct {
	Value string
	Set   bool
}

// tokens are the values of both annotations: as annotated, handled, or
// asked of the operator.
type tokens struct{ reconcile, reset string }

// asks is what the core knows of an object's annotations.
type asks struct {
	annotated struct{ reconcile, reset Token }
	handled   tokens
	// asking holds the values of the request the operator has not taken
	// yet; nil when none is on its way.
	asking *tokens
	// warned is the bad values an Event was emitted for.
	warned tokens
}

// compute is the object's status for in, with the values handled.
func (o *object) compute(in moduleobject.Input, now time.Time) {
	o.want = moduleobject.Compute(in, o.base(), o.gen, now)
	o.want.LastHandledReconcileAt, o.want.LastHandledResetAt = o.handled.reconcile, o.handled.reset
}

// takeHandled reads the values handled from a status as listed.
func (o *object) takeHandled(st *moduleobject.Status) {
	if st != nil {
		o.handled = tokens{st.LastHandledReconcileAt, st.LastHandledResetAt}
	}
}

func (c *Core) annotated(e Annotated, env Env) []Effect {
	o := c.obj(e.Name)
	o.annotated.reconcile, o.annotated.reset = e.ReconcileAt, e.ResetAt
	return c.ask(e.Name, env)
}

// ask asks the operator for the run the object's annotations ask for,
// once per new value, while leading (the values handled are known from
// the listed status then) and once its module is on the board. A bad
// (empty) value is ignored with a Warning Event; a module that is disabled
// has nothing to run: the value is handled, with a Warning Event.
func (c *Core) ask(name string, env Env) []Effect {
	o := c.objects[name]
	if !c.leading || o.asking != nil || o.in == nil {
		return nil
	}
	out := c.warnBad(name, o)
	rec, res := o.annotated.reconcile, o.annotated.reset
	force := rec.Set && valid(rec.Value) && rec.Value != o.handled.reconcile
	reset := res.Set && valid(res.Value) && res.Value != o.handled.reset
	if !force && !reset {
		return out
	}
	want := o.handled
	if force {
		want.reconcile = rec.Value
	}
	if reset {
		want.reset = res.Value
	}
	if o.in.Decided && !o.in.Enabled && !o.in.Global {
		o.handled = want
		out = append(out, EmitEvent{Name: name, Event: moduleobject.Event{Type: moduleobject.Warning,
			Reason: "RunNotQueued", Action: "Reconcile", Note: "the module is disabled: nothing to run"}})
		o.compute(*o.in, env.Now)
		return append(out, c.decide(name, env)...)
	}
	o.asking = &want
	return append(out, RequestRun{Name: name, Force: force, Reset: reset, Why: why(force, reset, want)})
}

func valid(v string) bool { return strings.TrimSpace(v) != "" }

func why(force, reset bool, t tokens) string {
	switch {
	case force && reset:
		return "reconcile-at " + t.reconcile + " and reset-at " + t.reset + " on the Module object"
	case force:
		return "reconcile-at " + t.reconcile + " on the Module object"
	}
	return "reset-at " + t.reset + " on the Module object"
}

// warnBad emits a Warning Event for an annotation set to an empty value,
// once while it stays so.
func (c *Core) warnBad(name string, o *object) []Effect {
	var out []Effect
	check := func(key string, t Token, warned *string) {
		bad := t.Set && !valid(t.Value)
		if bad && *warned != "bad" {
			out = append(out, EmitEvent{Name: name, Event: moduleobject.Event{Type: moduleobject.Warning,
				Reason: "InvalidAnnotation", Action: "Reconcile", Note: "annotation " + key + " is empty: ignored"}})
		}
		*warned = map[bool]string{true: "bad"}[bad]
	}
	check(ReconcileAnnotation, o.annotated.reconcile, &o.warned.reconcile)
	check(ResetAnnotation, o.annotated.reset, &o.warned.reset)
	return out
}

// runAsked: the operator took the request (its values are handled, and
// the status says so), or it did not reach the operator (Err: it is asked
// again after RetryDelay, the Tick).
func (c *Core) runAsked(e RunAsked, env Env) []Effect {
	o, ok := c.objects[e.Name]
	if !ok || o.asking == nil {
		return nil
	}
	if e.Err != "" {
		return c.runNotAsked(o, e)
	}
	o.handled, o.asking = *o.asking, nil
	out := []Effect{EmitEvent{Name: e.Name, Event: moduleobject.Event{Type: moduleobject.Normal,
		Reason: "RunRequested", Action: "Reconcile", Note: "run queued for " + e.Why}}}
	if o.in != nil {
		o.compute(*o.in, env.Now)
	}
	out = append(out, c.decide(e.Name, env)...)
	return append(out, c.ask(e.Name, env)...) // the annotations may have changed since
}

func (c *Core) runNotAsked(o *object, e RunAsked) []Effect {
	o.asking = nil
	out := []Effect{Log(step.At(slog.LevelWarn, "run asked on the Module object not taken by the operator, asking again",
		"object", e.Name, "err", e.Err, "in", RetryDelay))}
	if !o.armed {
		o.armed = true
		out = append(out, ArmTimer{Name: e.Name, After: RetryDelay})
	}
	return out
}

// askAll asks for every object's annotations (as the lead is taken).
func (c *Core) askAll(env Env) []Effect {
	var out []Effect
	for _, name := range c.names() {
		out = append(out, c.ask(name, env)...)
	}
	return out
}
