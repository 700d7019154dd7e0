package queue

import (
	"log/slog"

	"github.com/addon-actors/addon-operator/actors/step"
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

// holdSet holds event runs back, or queues those held, in order.
func (c *Core) holdSet(on bool, env Env) []Effect {
	released := c.hold.set(on)
	if len(released) == 0 {
		return nil
	}
	out := []Effect{Log(step.At(slog.LevelInfo, "events held back while discovery failed are queued", "runs", len(released)))}
	return append(out, c.append(released, env)...)
}

// append queues tasks at the end of their queues, holding back event runs
// while events are held.
func (c *Core) append(tasks []messages.Task, env Env) []Effect {
	var out []Effect
	var touched []string
	for _, t := range tasks {
		if c.hold.take(t) {
			out = append(out, Log(step.At(slog.LevelInfo, "event held back while discovery fails", "owner", t.Owner,
				"hook", t.Hook, "binding", t.Binding, "reason", t.Reason)))
			continue
		}
		touched = appendOnce(touched, c.queues.Append(t, env.Now))
	}
	return append(out, c.settle(touched)...)
}
