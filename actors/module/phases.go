package module

import (
	"fmt"

	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/hook/bindings"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/messages"
)

// enter moves the run to phase p; a phase with nothing to do passes on to
// the next one.
func (c *Core) enter(p Phase, env Env) []Effect {
	r := c.run
	r.phase = p
	c.markPhase(p, env.Now)
	switch p {
	case EnsureCRDs:
		return []Effect{ApplyCRDs{}}
	case EnsureWebhooks:
		return []Effect{RegisterWebhooks{}}
	case DropWebhooks:
		return []Effect{UnregisterWebhooks{}}
	case Startup:
		r.left = c.ordered(bindings.OnStartup, false)
	case KubeSync:
		if c.Watching {
			return c.enter(BeforeHelm, env)
		}
		if c.WithKube && c.Hooks.HasKubernetes() {
			return c.watch(true, true) // KubeSynced continues
		}
		return append(c.watch(true, false), c.enter(BeforeHelm, env)...)
	case BeforeHelm:
		r.left = c.ordered(bindings.BeforeHelm, false)
		if c.HasWebhooks {
			return append([]Effect{WebhooksSynced{}}, c.nextHook(env)...)
		}
	case Helm:
		return c.helm(env)
	case AfterHelm:
		r.left = c.ordered(bindings.AfterHelm, true)
	case BeforeDeleteHelm:
		if !c.HasChart || len(c.Hooks.Ordered(bindings.BeforeDeleteHelm)) == 0 {
			return c.enter(Delete, env)
		}
		return []Effect{CheckRelease{}} // ReleaseChecked continues
	case Delete:
		return []Effect{Uninstall{}}
	case AfterDeleteHelm:
		r.left = c.ordered(bindings.AfterDeleteHelm, false)
	}
	return c.nextHook(env)
}

// after is the phase that follows p in a run; Idle ends the task.
func after(p Phase) Phase {
	switch p {
	case Startup:
		return KubeSync
	case SyncHooks:
		return BeforeHelm
	case BeforeHelm:
		return Helm
	case Helm:
		return AfterHelm
	case BeforeDeleteHelm:
		return Delete
	case Delete:
		return AfterDeleteHelm
	}
	return Idle
}

// nextHook starts the phase's next hook, or moves on.
func (c *Core) nextHook(env Env) []Effect {
	r := c.run
	if len(r.left) == 0 {
		return c.advance(env)
	}
	req, err := c.hookRequest(r.left[0])
	if err != nil {
		return c.finish(err, env)
	}
	s := r.left[0]
	info := hookrun.RunInfoOf(s.binding, r.task.Queue, r.task.AllowFailure || s.allowFailure, r.task.Activation)
	return c.stepHook(hookrun.Begin{Hook: s.hook, Request: req, Info: info}, env)
}

// advance leaves the current phase.
func (c *Core) advance(env Env) []Effect {
	next := after(c.run.phase)
	if next == Idle {
		if c.dropsWebhooks() {
			return c.enter(DropWebhooks, env)
		}
		if c.run.task.Kind == messages.TaskModuleDelete {
			return append(c.disable(), c.finish(nil, env)...)
		}
		return c.finish(nil, env)
	}
	return c.enter(next, env)
}

// stepHook feeds the hook run and takes back what concerns the module: the
// committed scope and the run's end.
func (c *Core) stepHook(ev hookrun.Event, env Env) []Effect {
	if c.run == nil {
		return nil
	}
	var out []Effect
	for _, e := range c.hook.Step(ev, hookrun.Env{Now: env.Now, Scope: c.Scope}) {
		switch e := e.(type) {
		case hookrun.Committed:
			c.Scope = e.Scope
			if e.ValuesChanged && c.run.left[0].reacts {
				c.run.valuesChanged = true
			}
		case hookrun.Finished:
			return append(out, c.hookEnded(e.Err, env)...)
		default:
			out = append(out, HookEffect{Effect: e})
		}
	}
	return out
}

// hookEnded moves on to the next step, or fails the task; a failed step
// that allows failure is reported and passed.
func (c *Core) hookEnded(err error, env Env) []Effect {
	var out []Effect
	if s := c.run.left[0]; err != nil {
		if !s.allowFailure {
			return c.finish(err, env)
		}
		out = append(out, HookFailureAllowed{Hook: s.hook.Name, Binding: s.binding, Err: err})
	}
	c.run.left = c.run.left[1:]
	return append(out, c.nextHook(env)...)
}

// kubeSynced inserts the Synchronization runs before beforeHelm.
func (c *Core) kubeSynced(msg messages.KubeSyncRuns, env Env) []Effect {
	if c.run == nil || c.run.phase != KubeSync {
		return nil
	}
	if msg.Err != "" {
		return append(c.watch(false, false), c.finish(fmt.Errorf("kubernetes bindings: %s", msg.Err), env)...)
	}
	c.run.phase, c.run.left = SyncHooks, nil
	c.markPhase(SyncHooks, env.Now)
	for _, run := range msg.Runs {
		t := hookrun.SyncTaskOf(c.owner(), run)
		if h, ok := c.Hooks.Find(t.Hook); ok {
			c.run.left = append(c.run.left, step{hook: h, binding: t.Binding, context: t.Context,
				allowFailure: t.AllowFailure})
		}
	}
	return c.nextHook(env)
}

// helm upgrades the release with the pinned global values (none to do
// without a chart).
func (c *Core) helm(env Env) []Effect {
	if !c.HasChart {
		return c.advance(env)
	}
	if err := c.Scope.ValidateForHelm(); err != nil {
		return c.finish(fmt.Errorf("values for helm: %w", err), env)
	}
	c.run.helmStarted = env.Now
	return []Effect{RunHelm{Values: valuesForHelm(c.run.pinned, c), Maintenance: c.InMaintenance()}}
}

func (c *Core) helmFinished(r worker.HelmResult, env Env) []Effect {
	if c.run == nil || c.run.phase != Helm {
		return nil
	}
	out := []Effect{Observed{Helm: true, Activation: c.run.task.Activation, Took: env.Now.Sub(c.run.helmStarted), Err: r.Err},
		DestructiveDone{Actions: r.Outcome.Destructive}} // a clear may be done when the upgrade after it fails
	if r.Err != nil {
		return append(out, c.finish(fmt.Errorf("helm upgrade: %w", r.Err), env)...)
	}
	if r.Outcome.Revision > 0 {
		c.State.Revision = r.Outcome.Revision
	}
	c.recordHelm(r.Outcome, env.Now)
	if c.InMaintenance() && !r.Outcome.Upgraded {
		out = append(out, HelmSkipped{State: c.State.Maintenance})
	} else {
		out = append(out, HelmUpgraded{Outcome: r.Outcome})
	}
	return append(out, c.advance(env)...)
}

func (c *Core) deleteFinished(r worker.DeleteResult, env Env) []Effect {
	if c.run == nil || c.run.phase != Delete {
		return nil
	}
	out := []Effect{DestructiveDone{Actions: r.Removal.Destructive}}
	if r.Err != nil {
		return append(out, c.finish(fmt.Errorf("helm uninstall: %w", r.Err), env)...)
	}
	if r.Removal.Revision > 0 {
		t := c.run.task
		// Counted before the log: a reader of the log finds the metric updated.
		out = append(out, DestructiveDone{Actions: []worker.Destructive{{Action: worker.ActionUninstall, Reason: t.Cause}}},
			Uninstalled{Removal: r.Removal, Reason: t.Reason})
	}
	c.State.Revision = 0
	return append(out, c.advance(env)...)
}

// releaseChecked runs the beforeDeleteHelm hooks when the release exists;
// without one the delete goes on to the uninstall (a no-op then).
func (c *Core) releaseChecked(r worker.ReleaseResult, env Env) []Effect {
	if c.run == nil || c.run.phase != BeforeDeleteHelm || len(c.run.left) > 0 {
		return nil
	}
	if r.Err != nil {
		return c.finish(fmt.Errorf("beforeDeleteHelm: %w", r.Err), env)
	}
	if !r.Exists {
		return c.enter(Delete, env)
	}
	c.run.left = c.ordered(bindings.BeforeDeleteHelm, false)
	return c.nextHook(env)
}
