package module

import (
	"fmt"

	"github.com/addon-actors/addon-operator/hookrun/owner"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/values"
)

// What the module does as an owner of hooks and of a ConfigMap section,
// as the global actor does too, is the composed owner.Owner (its scope,
// its hook run, the owner events); this file is what the owner's effects
// mean to a module.

// scope is the module's values scope.
func (c *Core) scope() values.Scope { return c.own.Scope() }

// fromOwner keeps what the owner's effects mean to the module: a committed
// run's values change queues another module run when its step reacts, a
// finished run moves the task on, a published scope is the module's
// Publish; the rest goes to the shell.
func (c *Core) fromOwner(effects []owner.Effect, env Env) []Effect {
	var out []Effect
	for _, e := range effects {
		switch e := e.(type) {
		case owner.Publish:
			out = append(out, Publish{})
		case owner.InRun, owner.ConfigReply, owner.CheckReply, owner.Enqueue:
			out = append(out, Owned{Effect: e})
		case owner.RunFinished:
			return append(out, c.hookEnded(e.Err, env)...)
		case owner.RunCommitted:
			c.run.valuesChanged = c.run.valuesChanged || (e.ValuesChanged && c.run.left[0].reacts)
		default:
			panic(fmt.Sprintf("module: owner effect %T has no case in fromOwner", e))
		}
	}
	return out
}

// stepOwner handles the owner's events: its section (with its
// maintenance mode, core_maintenance.go) and those of its owner kit.
func (c *Core) stepOwner(ev Event, env Env) []Effect {
	switch e := ev.(type) {
	case SectionChanged:
		return c.configChanged(e)
	case OwnerEvent:
		return c.stepKit(e.Event, env)
	default:
		panic(fmt.Sprintf("module: event %T has no case in stepOwner", ev))
	}
}

// stepKit steps the owner kit with the running task: a module that is
// being disabled queues no hook event, and a hook run's event with no task
// running is stale.
func (c *Core) stepKit(ev owner.Event, env Env) []Effect {
	switch ev.(type) {
	case owner.HookEventArrived:
		if c.retiring {
			return nil
		}
	case owner.HookRunEvent:
		if c.run == nil {
			return nil
		}
	}
	cur, running := c.Current()
	return c.fromOwner(c.own.Step(ev, owner.Env{Now: env.Now, Task: cur, Running: running}), env)
}

// sectionChanged takes the module's ConfigMap section. The echo of our own
// config patch write equals the config layer already: nothing changes.
func (c *Core) sectionChanged(section any, reloadFollows bool) []Effect {
	effects := c.own.Step(owner.SectionChanged{Section: section}, owner.Env{})
	out := c.fromOwner(effects, Env{})
	if taken(effects) && c.state.Enabled && !reloadFollows {
		// The module queues its own run: the operator is not asked (unless
		// the same change reloads all modules, which runs this one).
		out = append(out, Enqueue{Tasks: []messages.Task{
			messages.NewModuleRun(c.names.Name, "module section of the ConfigMap changed")}})
	}
	return out
}

// taken tells whether the owner took a section that changed its values.
func taken(effects []owner.Effect) bool {
	for _, e := range effects {
		if r, ok := e.(owner.ConfigReply); ok {
			return r.Reply.Changed && r.Reply.Err == ""
		}
	}
	return false
}
