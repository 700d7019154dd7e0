package moduleobjects

import (
	"reflect"

	"github.com/addon-actors/addon-operator/moduleobject"
)

// decide is what object name needs now: nothing while a write of it is in
// flight or its timer is armed, or when it is another operator's, else its creation, its deletion, or its
// status written when it changed (at most once per MinInterval).
func (c *Core) decide(name string, env Env) []Effect {
	o := c.objects[name]
	if !c.leading || o.inflight || o.armed || o.owner != "" {
		return nil
	}
	switch {
	case o.in == nil && o.exists && c.converged:
		o.inflight = true
		return []Effect{DeleteObject{Name: name}}
	case o.in == nil:
		return nil
	case c.deferred(o):
		return nil
	case !o.exists:
		o.inflight = true
		return []Effect{CreateObject{Name: name, Status: o.want}}
	case o.written != nil && moduleobject.Same(*o.written, o.want):
		return nil
	case c.held(o):
		return nil
	}
	if wait := o.lastWrite.Add(MinInterval).Sub(env.Now); wait > 0 {
		o.armed = true
		return []Effect{ArmTimer{Name: name, After: wait}}
	}
	o.inflight = true
	return []Effect{WriteStatus{Name: name, Generation: o.gen, Status: o.want}}
}

// held: before the first converge is done, an object that has a status
// keeps it while its module only waits or runs (a restart's converge
// writes nothing for a module whose state comes back the same).
func (c *Core) held(o *object) bool {
	if c.converged || o.written == nil || o.written.Phase == "" {
		return false
	}
	switch o.want.Phase {
	case moduleobject.Pending, moduleobject.Running, moduleobject.WaitingForRequirement:
		return true
	}
	return false
}

// deferred: until the first converge is done, only the objects of
// modules that need attention or wait for something (Retrying, Stalled,
// Unseen, WaitingForReadiness, WaitingForRequirement) are written; the
// others wait for its end, so that a healthy converge's writes never
// compete with its own for the apiserver (a cold start: two writes per
// object, after it). A module that holds the converge up ends the wait
// for all (eager).
func (c *Core) deferred(o *object) bool {
	if c.eager() {
		return false
	}
	switch o.want.Phase {
	case moduleobject.Pending, moduleobject.Running, moduleobject.Ready, moduleobject.Disabled, moduleobject.Maintenance:
		return true
	}
	return false
}

func typeName(v any) string {
	if v == nil {
		return "<nil>"
	}
	return reflect.TypeOf(v).String()
}
