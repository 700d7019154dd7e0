package module

import (
	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/values"
)

// valuesForHelm are the release's values: the pinned global values and
// the module's.
func valuesForHelm(pinned Env, c *Core) map[string]any {
	return values.HelmValues(pinned.Global, c.Scope.Snapshot())
}

// finish ends the task and starts the next one waiting. A successful
// module run completes onStartup (a failed one runs it again on its
// retry, when it had not completed); a values change by an afterHelm or
// event hook queues another module run.
func (c *Core) finish(err error, env Env) []Effect {
	var out []Effect
	done := messages.TaskDone{}
	c.State.Phase, c.State.LastError = board.PhaseIdle, ""
	r := c.run
	c.run = nil
	if r != nil {
		c.endRecord(r.task.Kind, err, env.Now)
		c.State.LastRun = string(r.task.Kind)
		if r.task.Kind == messages.TaskModuleDelete && err != nil {
			out = append(out, DeleteFailed{Err: err})
		}
		if r.task.Kind == messages.TaskModuleRun {
			out = append(out, Observed{Activation: r.task.Activation, Took: env.Now.Sub(r.started), Err: err})
			if err == nil {
				c.State.Enabled, c.State.StartupDone = true, true
				out = append(out, ArmCheck{})
			}
		}
		if err == nil && r.valuesChanged {
			done.Later = []messages.Task{messages.NewModuleRun(c.Names.Name, "values changed by a hook")}
		}
	}
	if err != nil {
		done.Err = err.Error()
		c.State.LastError = done.Err
		out = append(out, TaskFailed{Err: err, Allowed: r != nil && r.task.AllowFailure})
	}
	c.State.Tasks++
	out = append(out, Publish{})
	return append(out, c.reply(done, env)...)
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
