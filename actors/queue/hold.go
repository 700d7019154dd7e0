package queue

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/messages"
)

// hold keeps the runs of hook events (Task.Event: Kubernetes events,
// schedule ticks, Synchronization runs) out of the queues while module
// discovery fails (messages.HoldEvents, spec/LIFECYCLE.md "Modules
// discovery"). Nothing is lost: what was held is queued, in the order it
// came, when they are released.
type hold struct {
	on   bool
	held []messages.Task
}

// take keeps t back and reports true while events are held and t is one.
func (h *hold) take(t messages.Task) bool {
	if !h.on || !t.Event {
		return false
	}
	h.held = append(h.held, t)
	return true
}

// set holds events back, or releases them and returns what was held.
func (h *hold) set(on bool) []messages.Task {
	h.on = on
	if on {
		return nil
	}
	out := h.held
	h.held = nil
	return out
}

// handleHold holds event runs back, or queues those held, in order.
func (a *Actor) handleHold(ctx actor.Context, msg messages.HoldEvents) {
	released := a.hold.set(msg.Hold)
	if len(released) == 0 {
		return
	}
	a.opts.Log.Info("events held back while discovery failed are queued", "runs", len(released))
	a.append(ctx, released)
}

// append queues tasks at the end of their queues, holding back event runs
// while events are held.
func (a *Actor) append(ctx actor.Context, tasks []messages.Task) {
	now := a.opts.Clock.Now()
	var touched []string
	for _, t := range tasks {
		if a.hold.take(t) {
			a.opts.Log.Info("event held back while discovery fails", "owner", t.Owner, "hook", t.Hook,
				"binding", t.Binding, "reason", t.Reason)
			continue
		}
		touched = appendOnce(touched, a.queues.Append(t, now))
	}
	a.logReplaced()
	a.logMerged()
	a.supersede(ctx)
	a.kick(ctx, touched...)
	a.publish()
}
