package queue

import (
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/addon-actors/addon-operator/actors/step"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/supervision"
)

// CoreOptions are the settings the core decides with.
type CoreOptions struct {
	// Policy gives the delay before the retry of a failed task.
	Policy supervision.Policy
	// Queues are there, empty, from the start (Options.Queues).
	Queues []string
	// ContextBound is Options.ContextBound.
	ContextBound int
	// OwnerID names the actor that runs a task's owner (its PID's id):
	// owners that one actor plays share its watch, and lose their tasks
	// together when it is lost (OwnerLost names the actor so).
	OwnerID func(owner string) string
}

// Core is the queue's decision state: the queues, which owner actor runs
// which queue's head, the events held back. It is pure: the actor feeds
// it events with Step and carries out the effects it returns, in order.
type Core struct {
	opts   CoreOptions
	queues *Queues
	// owners maps a running owner's actor (OwnerID) to the queues it runs
	// tasks of.
	owners map[string][]string
	// busy is set while some queue holds a task; its fall is logged.
	busy bool
	// hold keeps event runs back while discovery fails.
	hold hold
}

// NewCore returns a core with empty queues, the named ones already there.
func NewCore(opts CoreOptions) *Core {
	queues := NewQueues(opts.Queues...)
	queues.SetContextBound(opts.ContextBound)
	return &Core{opts: opts, queues: queues, owners: map[string][]string{}}
}

// Snapshot copies every queue, head first (Publish).
func (c *Core) Snapshot(now time.Time) messages.QueueSnapshot {
	return c.queues.Snapshot(now)
}

// Step applies ev and returns the effects; each Publish holds the
// queues as the event leaves them.
func (c *Core) Step(ev Event, env Env) []Effect {
	var out []Effect
	switch e := ev.(type) {
	case Started:
		out = c.publish()
	case Enqueued:
		out = c.append(e.Tasks, env)
	case HoldSet:
		out = c.holdSet(e.Hold, env)
	case Finished:
		out = c.finished(e.Done, env)
	case Progressed:
		out = c.progressed(e.Progress)
	case RetryDue:
		out = c.retryDue(e)
	case OwnerLost:
		out = c.ownerLost(e, env)
	default:
		panic(fmt.Sprintf("queue: event %T has no case in Step", ev))
	}
	return c.withSnapshot(out, env.Now)
}

// withSnapshot fills every Publish of out with the queues as they are
// now, copied once.
func (c *Core) withSnapshot(out []Effect, now time.Time) []Effect {
	var snap *messages.QueueSnapshot
	for i, e := range out {
		if _, ok := e.(Publish); !ok {
			continue
		}
		if snap == nil {
			s := c.queues.Snapshot(now)
			snap = &s
		}
		out[i] = Publish{Snapshot: *snap}
	}
	return out
}

// finished pops a task that succeeded, queuing what it asked for, or
// fails it.
func (c *Core) finished(msg messages.TaskDone, env Env) []Effect {
	running, ok := c.queues.Running(msg.Queue)
	if !ok || running.ID != msg.ID {
		return []Effect{Log(step.At(slog.LevelWarn, "TaskDone for a task that is not running", "queue", msg.Queue, "id", msg.ID))}
	}
	out := c.release(running)
	if msg.Err != "" && msg.Stalled {
		out = append(out, c.stall(running, msg.Err)...)
		out = append(out, c.publish()...)
		return append(out, c.reportGroup(running, messages.GroupRunFailed, msg.Err)...)
	}
	if msg.Err != "" {
		out = append(out, c.fail(running, msg.Err, env)...)
		out = append(out, c.publish()...)
		return append(out, c.reportGroup(running, messages.GroupRunFailed, msg.Err)...)
	}
	c.queues.Finish(msg.Queue, msg.ID)
	touched := append(c.queues.InsertNext(inherit(running, msg.Next), env.Now), msg.Queue)
	later, rerun := keepInGroup(running, inherit(running, msg.Later))
	for _, t := range later {
		touched = appendOnce(touched, c.queues.Append(t, env.Now))
	}
	out = append(out, c.settle(touched)...)
	return append(out, c.reportGroup(running, successOutcome(rerun), "")...)
}

// inherit gives the tasks a task queues when it finishes (its steps and
// its reactions) its activation where they name none, as the original's
// follow-ups take their task's labels (on a copy: the slice is the
// sender's).
func inherit(parent messages.Task, next []messages.Task) []messages.Task {
	if parent.Activation == "" {
		return next
	}
	out := slices.Clone(next)
	for i := range out {
		if out[i].Activation == "" {
			out[i].Activation = parent.Activation
		}
	}
	return out
}

// settle follows tasks newly queued in the touched queues: it logs the
// retries replaced and the contexts merged, lets a reload supersede a
// failing converge, starts the idle queues and publishes.
func (c *Core) settle(touched []string) []Effect {
	out := c.logReplaced()
	out = append(out, c.logMerged()...)
	out = append(out, c.supersede()...)
	out = append(out, c.kick(touched...)...)
	return append(out, c.publish()...)
}

// progressed shows what a running task is doing; one that is no longer
// running is past it.
func (c *Core) progressed(msg messages.TaskProgress) []Effect {
	if c.queues.SetStatus(msg.Queue, msg.ID, msg.Status, msg.Since) {
		return c.publish()
	}
	return nil
}

// kick starts the head of each idle queue.
func (c *Core) kick(names ...string) []Effect {
	var out []Effect
	for _, name := range names {
		t, ok := c.queues.Next(name)
		if !ok {
			continue
		}
		id := c.opts.OwnerID(t.Owner)
		c.owners[id] = appendOnce(c.owners[id], name)
		out = append(out, Run{Task: t})
	}
	return out
}

// release forgets that the task's owner runs it.
func (c *Core) release(t messages.Task) []Effect {
	id := c.opts.OwnerID(t.Owner)
	left := c.owners[id][:0]
	for _, q := range c.owners[id] {
		if q != t.Queue {
			left = append(left, q)
		}
	}
	if len(left) == 0 {
		delete(c.owners, id)
		return []Effect{Unwatch{Owner: t.Owner}}
	}
	c.owners[id] = left
	return nil
}

// publish hands the snapshot out after every change, and logs "queues
// idle" when the last task of all queues is gone.
func (c *Core) publish() []Effect {
	out := []Effect{Publish{}}
	busy := !c.queues.Empty()
	if c.busy && !busy {
		out = append(out, Log(step.At(slog.LevelInfo, "queues idle")))
	}
	c.busy = busy
	return out
}

func describe(t messages.Task) string {
	parts := []string{string(t.Kind)}
	for _, s := range []string{t.Module, t.Hook, t.Binding} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	return t.Queue + ":" + strings.Join(parts, ":")
}
