package queue

import (
	"log/slog"
	"slices"

	"github.com/addon-actors/addon-operator/actors/step"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/supervision"
)

// fail drops an allowFailure task, or keeps it at the head and schedules
// its retry.
func (c *Core) fail(t messages.Task, err string, env Env) []Effect {
	if t.AllowFailure {
		return c.drop(t, err, slog.LevelWarn, "task failed; dropped as it allows failure")
	}
	if c.queues.GroupSuperseded(t.Group) {
		return c.drop(t, err, slog.LevelWarn, "task failed; dropped as the converge it belongs to was superseded")
	}
	retry := supervision.PlanAt(c.opts.Policy, t.Attempts+1, env.Now)
	c.queues.Fail(t.Queue, t.ID, err, retry.At)
	out := c.publish() // before the log, so that a reader of the log finds /queue updated
	out = append(out, Log(step.At(slog.LevelError, "task failed; retrying", "task", describe(t), "attempt", retry.Attempt,
		"retryIn", retry.Delay, "err", err)),
		ArmRetry{Due: RetryDue{Queue: t.Queue, ID: t.ID}, Delay: retry.Delay})
	if t.Group != 0 {
		out = append(out, c.kick(t.Queue)...) // the failed run stepped aside
	}
	return append(out, c.supersede()...)
}

// drop pops a failed task for good, tells of it, and starts what is next
// in its queue.
func (c *Core) drop(t messages.Task, err string, level slog.Level, msg string) []Effect {
	c.queues.Finish(t.Queue, t.ID)
	out := []Effect{Log(step.At(level, msg, "task", describe(t), "err", err)), TellDropped{Task: t, Err: err}}
	return append(out, c.kick(t.Queue)...)
}

// retryDue starts a failed task again once its delay is over; a retry
// planned for a task that is gone (dropped or replaced) finds nothing.
func (c *Core) retryDue(due RetryDue) []Effect {
	if !c.queues.RetryDue(due.Queue, due.ID) {
		return nil
	}
	return append(c.kick(due.Queue), c.publish()...)
}

// ownerLost fails (retry) or drops the tasks a lost owner actor was
// running. It walks a copy of the owner's queues: release rewrites the
// list in place, and walking it would pass over a queue.
func (c *Core) ownerLost(lost OwnerLost, env Env) []Effect {
	var out []Effect
	for _, name := range slices.Clone(c.owners[lost.ID]) {
		t, ok := c.queues.Running(name)
		if !ok {
			continue
		}
		out = append(out, c.release(t)...)
		if lost.Retry {
			out = append(out, c.fail(t, lost.Why, env)...)
			out = append(out, c.reportGroup(t, messages.GroupRunFailed, lost.Why)...)
			continue
		}
		out = append(out, c.drop(t, lost.Why, slog.LevelError, "task dropped")...)
		out = append(out, c.reportGroup(t, messages.GroupRunDropped, lost.Why)...)
	}
	return append(out, c.publish()...)
}
