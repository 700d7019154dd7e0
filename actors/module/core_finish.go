package module

import (
	"fmt"
	"log/slog"

	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/messages"
)

// assigned starts a task, or lets it wait for the running one.
func (c *Core) assigned(a hookrun.Assigned, env Env) []Effect {
	if c.tasks.Offer(a) == hookrun.Start {
		return c.start(a.Task, env)
	}
	return nil
}

// start begins a task: its inputs are pinned now.
func (c *Core) start(t messages.Task, env Env) []Effect {
	c.run = &moduleRun{task: t, pinned: env, started: env.Now}
	c.beginRecord(t, env.Now)
	c.state.Phase = string(t.Kind)
	out := []Effect{Publish{}}
	switch t.Kind {
	case messages.TaskModuleRun:
		out = append(out, c.setStalled(false)...) // a run of the module took the stalled one's place
		if c.retiring {                           // enabled again before a delete: bindings restart
			c.retiring = false
			out = append(out, c.watch(false, false)...)
		}
		if !c.state.StartupDone {
			return append(out, c.enter(c.serve.firstPhase(), env)...)
		}
		return append(out, c.enter(KubeSync, env)...)
	case messages.TaskModuleDelete:
		return append(out, c.enter(BeforeDeleteHelm, env)...)
	case messages.TaskModuleHook:
		h, ok := c.hooks.Find(t.Hook)
		if !ok {
			return append(out, c.finish(fmt.Errorf("module %s has no hook %q", c.names.Name, t.Hook), env)...)
		}
		c.run.phase = EventHook
		c.run.left = []runStep{{hook: h, binding: t.Binding, context: t.Context, reacts: !t.Sync}}
		return append(out, c.nextHook(env)...)
	}
	return append(out, c.finish(fmt.Errorf("module actor cannot run %s tasks", t.Kind), env)...)
}

// finish ends the task and starts the next one waiting. A successful
// module run completes onStartup (a failed one runs it again on its
// retry, when it had not completed); a values change by an afterHelm or
// event hook queues another module run.
func (c *Core) finish(err error, env Env) []Effect {
	var out []Effect
	done := messages.TaskDone{}
	c.state.Phase, c.state.LastError = board.PhaseIdle, ""
	r := c.run
	c.run = nil
	if r != nil {
		c.endRecord(r.task.Kind, err, env.Now)
		c.state.LastRun = string(r.task.Kind)
		if r.task.Kind == messages.TaskModuleDelete {
			out = append(out, c.stepDelete(deleteEnded{Err: err}, env)...)
		}
		if r.task.Kind == messages.TaskModuleRun {
			done.Stalled = err != nil && stalls(c.remedy, r.task)
			out = append(out, c.setStalled(done.Stalled)...)
			out = append(out, Observed{Activation: r.task.Activation, Took: env.Now.Sub(r.started), Err: err})
			if err == nil {
				c.state.Enabled, c.state.StartupDone = true, true
				out = append(out, c.stepCheck(runSucceeded{}, env)...)
			}
		}
		if err == nil && r.valuesChanged {
			done.Later = []messages.Task{messages.NewModuleRun(c.names.Name, "values changed by a hook")}
		}
	}
	if err != nil {
		done.Err = err.Error()
		c.state.LastError = done.Err
		out = append(out, taskFailed(err, r != nil && r.task.AllowFailure))
	}
	c.state.Tasks++
	out = append(out, Publish{})
	return append(out, c.reply(done, env)...)
}

// taskFailed is the record of a failed task, at WARN when the task allows
// failure: the queue drops it.
func taskFailed(err error, allowed bool) Log {
	if allowed {
		return logAt(slog.LevelWarn, "task failed; its binding allows failure", "err", err)
	}
	return logAt(slog.LevelError, "task failed", "err", err)
}

// reply answers the finished task's queue and starts the next task.
func (c *Core) reply(done messages.TaskDone, env Env) []Effect {
	to, d, ok, next, hasNext := c.tasks.Finish(done)
	if !ok {
		return nil
	}
	out := []Effect{Reply{To: to, Done: d}}
	if hasNext {
		out = append(out, c.start(next.Task, env)...)
	}
	return out
}
