package module

import (
	"encoding/json"
	"fmt"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/values"
)

// The module's own life, as the core decides it: started, its hooks
// configured (or failed to be, then configured again after the retry
// policy's delay until they are), asked whether it is enabled, removed.
// Discovery and tasks that arrive before the hooks are configured wait
// (deferred), so that a module whose hooks fail is never listed as
// enabled; modules configure a few at a time in module order, and
// discovery asks in module order, so it follows closely.

// startup holds what the core keeps of its start: whether the hooks are
// configured, the error that left the module out and how many times in a
// row they failed to be, the requests that wait for it, the discovery that
// waits for the enabled script, and whether the module's dir is gone
// (nothing more is published).
type startup struct {
	configured bool
	err        error
	failures   int
	deferred   []Event
	checkBy    *actor.PID
	removed    bool
}

// Removed tells whether the module's dir is gone: it publishes no more.
func (c *Core) Removed() bool { return c.life.removed }

// started takes the scope built from the values files and the peers there
// are (the ConfigMap section arrives with SectionChanged).
func (c *Core) started(e Started) []Effect {
	c.Scope, c.WithKube = e.Scope, e.WithKube
	c.hook = hookrun.Run{WithKube: e.WithKube, Paced: e.Paced}
	return nil
}

// configure takes the configured hooks, or the error that leaves the
// module out, reports ready, and handles what waited. A failure is tried
// again after the retry policy's delay (a hook's --config may fail for a
// while: an apiserver it asks, a file not there yet); the operator hears of
// the first failure, and of the success that brings the module back.
func (c *Core) configure(e Configured, env Env) []Effect {
	again := c.life.configured
	c.life.configured = true
	var out []Effect
	if e.Err != nil {
		c.life.err = e.Err
		c.life.failures++
		c.State.Phase, c.State.LastError = board.PhaseFailed, e.Err.Error()
		out = []Effect{StartFailed{Err: e.Err}, Publish{}}
		if !again {
			out = append(out, Ready{Err: e.Err.Error()})
		}
		out = append(out, ArmReconfigure{Attempt: c.life.failures})
	} else {
		if c.life.err != nil {
			out = append(out, Recovered{Failures: c.life.failures})
		}
		c.life.err, c.life.failures = nil, 0
		c.Hooks, c.HasCRDs, c.HasWebhooks, c.State.Webhooks = e.Hooks, e.HasCRDs, e.HasWebhooks, e.Webhooks
		c.State.Phase, c.State.LastError = board.PhaseIdle, ""
		out = append(out, Publish{}, Ready{})
	}
	return append(out, c.runDeferred(env)...)
}

// reconfigureDue configures the hooks again, unless the module has gone or
// has been configured meanwhile.
func (c *Core) reconfigureDue() []Effect {
	if c.life.removed || c.life.err == nil {
		return nil
	}
	return []Effect{Reconfigure{}}
}

// runDeferred handles what waited for the hooks' configuration.
func (c *Core) runDeferred(env Env) []Effect {
	var out []Effect
	deferred := c.life.deferred
	c.life.deferred = nil
	for _, ev := range deferred {
		out = append(out, c.Step(ev, env)...)
	}
	return out
}

// whenConfigured handles ev now, or once the hooks are configured. A
// module that failed to start drops its tasks (retrying them could never
// succeed and would block their queue).
func (c *Core) whenConfigured(ev Event, env Env) []Effect {
	if !c.life.configured {
		c.life.deferred = append(c.life.deferred, ev)
		return nil
	}
	switch e := ev.(type) {
	case EnabledAsked:
		return c.checkEnabled(e, env)
	case TaskAssigned:
		if c.life.err != nil {
			return []Effect{TaskDropped{To: e.Assigned.Queue, Task: e.Assigned.Task, Err: c.life.err}}
		}
		return c.assigned(e.Assigned, env)
	default:
		panic(fmt.Sprintf("module: event %T has no case in whenConfigured", ev))
	}
}

// checkEnabled answers discovery: a module that failed to start is
// unavailable, one without an enabled script is enabled; otherwise the
// script runs, and sees the modules enabled before this one in
// global.enabledModules.
func (c *Core) checkEnabled(e EnabledAsked, env Env) []Effect {
	reply := messages.EnabledChecked{Module: c.Names.Name}
	switch {
	case c.life.err != nil:
		reply.Unavailable, reply.Err = true, c.life.err.Error()
	case !c.HasEnabledScript:
		reply.Enabled = true
	default:
		vals, cfg, err := encodeInput(values.ModuleHookInput(env.Global, c.Scope.Snapshot(), e.EnabledBefore))
		if err == nil {
			c.life.checkBy = e.From
			return []Effect{RunEnabledScript{Values: vals, ConfigValues: cfg}}
		}
		reply.Err = err.Error()
	}
	return []Effect{EnabledReply{To: e.From, Checked: reply}}
}

// encodeInput is the enabled script's values and config values as JSON.
func encodeInput(in values.HookInput) (vals, cfg []byte, err error) {
	if vals, err = json.Marshal(in.Values); err != nil {
		return nil, nil, err
	}
	if cfg, err = json.Marshal(in.ConfigValues); err != nil {
		return nil, nil, err
	}
	return vals, cfg, nil
}

// enabledScriptDone answers the discovery that ran the script.
func (c *Core) enabledScriptDone(e EnabledScriptDone) []Effect {
	to := c.life.checkBy
	if to == nil {
		return nil
	}
	c.life.checkBy = nil
	reply := messages.EnabledChecked{Module: c.Names.Name, Enabled: e.Enabled}
	if e.Err != nil {
		reply.Err = e.Err.Error()
	}
	return []Effect{EnabledReply{To: to, Checked: reply}}
}

// remove forgets the module whose dir is gone: its bindings stop, its
// published state and metrics go, and nothing more is published.
func (c *Core) remove() []Effect {
	out := c.watch(false, false)
	c.life.removed = true
	return append(out, Forget{StartFailed: c.life.err != nil, InMaintenance: c.InMaintenance(), Webhooks: c.HasWebhooks})
}
