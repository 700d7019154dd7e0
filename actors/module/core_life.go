package module

import (
	"fmt"

	"github.com/addon-actors/addon-operator/values"
)

// The module's own life, as the core decides it: its hooks configured,
// asked whether it is enabled, disabled, removed (startup.go decides the
// start). Discovery and tasks that arrive before the hooks are configured
// wait (deferred), so that a module whose hooks fail is never listed as
// enabled; modules configure a few at a time in module order, and
// discovery asks in module order, so it follows closely.

// stepLife handles the events of the module's own life.
func (c *Core) stepLife(ev Event, env Env) []Effect {
	switch e := ev.(type) {
	case Configured:
		return c.configure(e, env)
	case TaskAssigned, EnabledAsked:
		return c.whenConfigured(ev, env)
	case EnabledScriptDone, ReconfigureDue:
		return c.stepStartup(ev.(lifeEvent), env)
	case Removed:
		return c.remove()
	case Disabled:
		return c.disabled()
	default:
		panic(fmt.Sprintf("module: event %T has no case in stepLife", ev))
	}
}

// stepStartup steps the startup sub-machine and takes back what concerns
// the core: the state it leaves and the tasks it lets run.
func (c *Core) stepStartup(ev lifeEvent, env Env) []Effect {
	return absorb(c.life.Step(ev), func(e lifeEffect) []Effect {
		switch e := e.(type) {
		case lifeState:
			c.state.Phase, c.state.LastError = e.Phase, e.LastError
			return []Effect{Publish{}}
		case taskAccepted:
			return c.assigned(e.Assigned, env)
		}
		return []Effect{LifeEffect{Effect: e}}
	})
}

// configure takes the configured hooks, or the error that leaves the
// module out, and handles what waited.
func (c *Core) configure(e Configured, env Env) []Effect {
	if e.Err == nil {
		c.hooks = e.Hooks
		c.state.Webhooks = declaredWebhooks(c.names.Name, e.Hooks)
		c.serve.configured(e.Hooks, e.CRDs)
	}
	out := c.stepStartup(hooksConfigured{Err: e.Err}, env)
	return append(out, c.runDeferred(env)...)
}

// runDeferred handles what waited for the hooks' configuration.
func (c *Core) runDeferred(env Env) []Effect {
	var out []Effect
	deferred := c.deferred
	c.deferred = nil
	for _, ev := range deferred {
		out = append(out, c.take(ev, env)...)
	}
	return out
}

// whenConfigured handles ev now, or once the hooks are configured. A
// module that failed to start drops its tasks (retrying them could never
// succeed and would block their queue).
func (c *Core) whenConfigured(ev Event, env Env) []Effect {
	if !c.life.configured {
		c.deferred = append(c.deferred, ev)
		return nil
	}
	switch e := ev.(type) {
	case EnabledAsked:
		in := values.ModuleHookInput(env.Global, c.scope().Snapshot(), e.EnabledBefore)
		return c.stepStartup(enabledAsked{From: e.From, Input: in}, env)
	case TaskAssigned:
		return c.stepStartup(taskOffered(e), env)
	default:
		panic(fmt.Sprintf("module: event %T has no case in whenConfigured", ev))
	}
}

// remove forgets the module whose dir is gone: its bindings stop, its
// published state and metrics go, and nothing more is published.
func (c *Core) remove() []Effect {
	out := c.watch(false, false)
	failed := c.life.err != nil
	out = append(out, c.stepStartup(removed{}, Env{})...)
	return append(out, Forget{StartFailed: failed, InMaintenance: c.InMaintenance(), Webhooks: c.serve.hasWebhooks})
}

// Removed tells whether the module's dir is gone: it publishes no more.
func (c *Core) Removed() bool { return c.life.removed }

// disabled marks the module disabled; its bindings stay on until its
// delete ends (retiring).
func (c *Core) disabled() []Effect {
	c.state.Enabled, c.state.StartupDone = false, false
	c.state.Drift = nil
	c.retiring = c.watching
	return append(c.stepCheck(driftForgotten{}, Env{}), Publish{}) // its release is deleted
}

// disable ends a delete: the module is disabled and its bindings stop.
func (c *Core) disable() []Effect {
	c.state.Enabled, c.state.StartupDone = false, false
	c.retiring = false
	return append(c.watch(false, false), Publish{})
}

// watch starts or stops the bindings, once.
func (c *Core) watch(on, sync bool) []Effect {
	if c.watching == on {
		return nil
	}
	c.watching = on
	return []Effect{Watch{On: on, Sync: sync, Hooks: c.hooks}}
}
