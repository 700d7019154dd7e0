package operator

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/addon-actors/addon-operator/actors/step"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/messages"
)

// runTask runs the operator's own tasks. The queue runs one task per
// queue, and all operator tasks go through main, so one runs at a time.
func (c *Core) runTask(a hookrun.Assigned, env Env) []Effect {
	c.current = a
	t := a.Task
	switch t.Kind {
	case messages.TaskReloadAll:
		c.timer.begin(t, env.Now)
		return []Effect{c.finish(messages.TaskDone{Next: []messages.Task{
			{Kind: messages.TaskGlobalBinding, Owner: messages.OwnerGlobal, Binding: "beforeAll", Reason: t.Reason},
			{Kind: messages.TaskDiscover, Owner: messages.OwnerOperator, Reason: t.Reason},
		}})}
	case messages.TaskDiscover:
		c.timer.begin(t, env.Now)
		return c.startDiscovery(env)
	case messages.TaskParallelModuleRun:
		return c.startGroup(t)
	case messages.TaskModulePurge:
		return []Effect{DeleteRelease{Name: t.Module}}
	case messages.TaskConvergeDone:
		return append(c.converged(env), c.finish(messages.TaskDone{}))
	}
	return []Effect{c.finish(messages.TaskDone{Err: fmt.Sprintf("operator cannot run %s tasks", t.Kind)})}
}

// convergeTimer times the converge in progress: when it started, and
// what started it (the first of its tasks that names one).
type convergeTimer struct {
	start time.Time
	by    messages.Activation
}

// begin notes a task of the converge at now.
func (t *convergeTimer) begin(task messages.Task, now time.Time) {
	if t.start.IsZero() {
		t.start = now
	}
	if t.by == "" {
		t.by = task.Activation
	}
}

// end returns how long the converge took and what started it (a
// discovery alone: a reload, the modules enabled changed), and starts over.
func (t *convergeTimer) end(now time.Time) (time.Duration, messages.Activation) {
	took, by := now.Sub(t.start), t.by
	*t = convergeTimer{}
	if by == "" {
		by = messages.ActivationReloadAll
	}
	return took, by
}

func (c *Core) converged(env Env) []Effect {
	took, by := c.timer.end(env.Now)
	var out []Effect
	if !c.ready {
		// Ready first: whoever reads the log line finds /readyz 200.
		c.ready = true
		out = append(out, MarkReady{}, Log(step.At(slog.LevelInfo, "first converge done; ready", "took", took)))
	} else {
		out = append(out, Log(step.At(slog.LevelInfo, "converge done", "took", took)))
	}
	return append(out, Converged{Took: took, Activation: by})
}

// PurgedMessage is the message of the WARN record of a purge.
const PurgedMessage = "purged release without a module dir"

func (c *Core) releaseDeleted(msg ReleaseDeleted) []Effect {
	if msg.Err != nil {
		return []Effect{c.finish(messages.TaskDone{Err: fmt.Sprintf("purge release %s: %v", msg.Name, msg.Err)})}
	}
	t := c.current.Task
	// Counted before the log: a reader of the log finds the metric updated.
	return []Effect{
		Count{Metric: MetricPurges, Release: msg.Name, Cause: t.Cause},
		Log(step.At(slog.LevelWarn, PurgedMessage, "release", msg.Name, "reason", t.Reason)),
		c.finish(messages.TaskDone{}),
	}
}
