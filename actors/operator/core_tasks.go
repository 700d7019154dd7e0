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
		c.markConvergeStart(t, env)
		return []Effect{c.finish(messages.TaskDone{Next: []messages.Task{
			{Kind: messages.TaskGlobalBinding, Owner: messages.OwnerGlobal, Binding: "beforeAll", Reason: t.Reason},
			{Kind: messages.TaskDiscover, Owner: messages.OwnerOperator, Reason: t.Reason},
		}})}
	case messages.TaskDiscover:
		c.markConvergeStart(t, env)
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

func (c *Core) markConvergeStart(t messages.Task, env Env) {
	if c.convergeStart.IsZero() {
		c.convergeStart = env.Now
	}
	if c.convergeBy == "" {
		c.convergeBy = t.Activation
	}
}

func (c *Core) converged(env Env) []Effect {
	took, by := env.Now.Sub(c.convergeStart), c.convergeBy
	c.convergeStart, c.convergeBy = time.Time{}, ""
	if by == "" {
		by = messages.ActivationReloadAll // a discovery alone: the modules enabled changed
	}
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
