package module

import (
	"fmt"
	"log/slog"

	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/hook/bindings"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/hookrun/owner"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/values"
)

// HelmSkippedMessage is the message of the record logged once per run whose
// helm step left the release as it is for maintenance mode.
const HelmSkippedMessage = "helm skipped: module in maintenance mode"

// enter moves the run to phase p; a phase with nothing to do passes on to
// the next one.
func (c *Core) enter(p Phase, env Env) []Effect {
	r := c.run
	r.phase = p
	c.markPhase(p, env.Now)
	switch p {
	case EnsureCRDs, EnsureWebhooks, DropWebhooks:
		return c.stepWebhooks(phaseEntered{Phase: p}, env)
	case BeforeDeleteHelm, Delete:
		hooks := len(c.hooks.Ordered(bindings.BeforeDeleteHelm)) > 0
		return c.stepDelete(deleteEntered{Phase: p, Hooks: hooks}, env)
	case Startup:
		r.left = c.ordered(bindings.OnStartup, false)
	case KubeSync:
		if c.watching {
			return c.enter(BeforeHelm, env)
		}
		if c.withKube && c.hooks.HasKubernetes() {
			return c.watch(true, true) // KubeSynced continues
		}
		return append(c.watch(true, false), c.enter(BeforeHelm, env)...)
	case BeforeHelm:
		r.left = c.ordered(bindings.BeforeHelm, false)
		return append(c.stepWebhooks(phaseEntered{Phase: p}, env), c.nextHook(env)...)
	case Helm:
		return c.helm(env)
	case AfterHelm:
		r.left = c.ordered(bindings.AfterHelm, true)
	case AfterDeleteHelm:
		r.left = c.ordered(bindings.AfterDeleteHelm, false)
	}
	return c.nextHook(env)
}

// phaseOver ends the running phase: the task fails with its error, or goes
// on to the next phase (Idle: the one that follows it).
func (c *Core) phaseOver(e phaseOver, env Env) []Effect {
	switch {
	case e.Err != nil:
		return c.finish(e.Err, env)
	case e.Next == Idle:
		return c.advance(env)
	}
	return c.enter(e.Next, env)
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
	return c.stepKit(owner.HookRunEvent{Event: hookrun.Begin{Hook: s.hook, Request: req, Info: info}}, env)
}

// advance leaves the current phase.
func (c *Core) advance(env Env) []Effect {
	next := after(c.run.phase)
	if next == Idle {
		if c.run.task.Kind == messages.TaskModuleDelete && c.serve.drops(c.run.phase) {
			return c.enter(DropWebhooks, env)
		}
		if c.run.task.Kind == messages.TaskModuleDelete {
			return append(c.disable(), c.finish(nil, env)...)
		}
		return c.finish(nil, env)
	}
	return c.enter(next, env)
}

// hookEnded moves on to the next step, or fails the task; a failed step
// that allows failure is reported and passed.
func (c *Core) hookEnded(err error, env Env) []Effect {
	var out []Effect
	if s := c.run.left[0]; err != nil {
		if !s.allowFailure {
			return c.finish(err, env)
		}
		out = append(out, logAt(slog.LevelWarn, "hook failed; its binding allows failure, the run goes on",
			"hook", s.hook.Name, "binding", s.binding, "err", err))
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
		if h, ok := c.hooks.Find(t.Hook); ok {
			c.run.left = append(c.run.left, runStep{hook: h, binding: t.Binding, context: t.Context,
				allowFailure: t.AllowFailure})
		}
	}
	return c.nextHook(env)
}

// helm upgrades the release with the pinned global values (none to do
// without a chart).
func (c *Core) helm(env Env) []Effect {
	if !c.hasChart {
		return c.advance(env)
	}
	if err := c.scope().ValidateForHelm(); err != nil {
		return c.finish(fmt.Errorf("values for helm: %w", err), env)
	}
	c.run.helmStarted = env.Now
	module := c.scope().Snapshot()
	return []Effect{RunHelm{Values: values.HelmValues(c.run.pinned.Global, module), Module: module,
		Maintenance: c.InMaintenance(), Drift: c.check.mode != DriftOff, Wait: c.wait.on, WaitTimeout: c.wait.timeout,
		Force: c.run.task.Force}}
}

func (c *Core) helmFinished(r worker.HelmResult, env Env) []Effect {
	if c.run == nil || c.run.phase != Helm {
		return nil
	}
	out := []Effect{Observed{Helm: true, Activation: c.run.task.Activation, Took: env.Now.Sub(c.run.helmStarted), Err: r.Err},
		DestructiveDone{Actions: r.Outcome.Destructive}} // a clear may be done when the upgrade after it fails
	if r.Err != nil {
		return append(out, c.helmFailed(r, env)...)
	}
	if r.Outcome.Revision > 0 {
		c.state.Revision = r.Outcome.Revision
	}
	c.state.Remedied = ""

	c.recordHelm(r.Outcome, env.Now)
	if c.InMaintenance() && !r.Outcome.Upgraded {
		out = append(out, logAt(slog.LevelInfo, HelmSkippedMessage, "state", c.state.Maintenance, "revision", c.state.Revision))
	} else {
		o := r.Outcome
		out = append(out, logAt(slog.LevelInfo, "helm", "upgraded", o.Upgraded, "revision", o.Revision, "reason", o.Reason))
	}
	return append(out, c.advance(env)...)
}

// helmDrift follows a module run's helm step (check.go).
func (c *Core) helmDrift(r worker.HelmResult, env Env) []Effect {
	return c.stepCheck(helmDone{Result: r}, env)
}

// helmWaiting shows what the helm step waits for: in the module's state
// (`module why`) and as its task's status (`queue list`), since the first
// time it waited.
func (c *Core) helmWaiting(notReady []string, env Env) []Effect {
	t, running := c.Current()
	if c.Phase() != Helm || !running {
		return nil // the step is over
	}
	w := board.WaitState{Since: env.Now, NotReady: notReady}
	if prev := c.state.Wait; prev != nil {
		w.Since = prev.Since
	}
	c.state.Wait = &w
	return []Effect{Publish{}, TaskStatus{Progress: messages.TaskProgress{Queue: t.Queue, ID: t.ID, Status: w.Text(), Since: w.Since}}}
}
