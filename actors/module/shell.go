package module

import (
	"errors"
	"fmt"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/actors/step"
	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/messages"
)

// step feeds ev to the core with the inputs as published now, and carries
// out the effects.
func (a *Actor) step(ctx actor.Context, ev Event) {
	env := Env{Now: a.now()}
	if a.read != nil {
		env.Global, env.Enabled = a.read.Global(), a.read.EnabledModules()
	}
	for _, e := range a.core.Step(ev, env) {
		a.apply(ctx, e)
	}
}

// apply carries out one effect. Its switch has a case for every type of the
// closed set Effect, and each sub-machine's applier for every type of its
// set (TestApplyCoversEveryEffect holds them to that): an effect without
// one is a bug, not something to ignore.
func (a *Actor) apply(ctx actor.Context, e Effect) {
	switch e := e.(type) {
	case Owned:
		a.shell.Apply(ctx, e.Effect)
	case LifeEffect:
		a.applyLife(ctx, e.Effect)
	case CheckEffect:
		a.applyCheck(ctx, e.Effect)
	case WebhookEffect:
		a.applyWebhooks(ctx, e.Effect)
	case DeleteEffect:
		a.applyDelete(ctx, e.Effect)
	case Log:
		step.Log(e).Write(a.log)
	case RunHelm:
		ctx.Request(a.worker, a.helmJob(e))
	case Remediate:
		ctx.Request(a.worker, worker.RemediateJob{Module: a.name(), Rollback: e.Rollback, Uninstall: e.Uninstall, AfterWait: e.AfterWait})
	case StalledSet:
		a.stalledSet(e)
	case Watch:
		a.watch(ctx, e)
	case Reply:
		a.reportDone(e.Done)
		ctx.Send(e.To, e.Done)
	case Publish:
		a.publish(e)
	case Enqueue:
		ctx.Send(a.peers.Queue, messages.Enqueue{Tasks: e.Tasks})
	case Observed:
		a.observed(e)
	case DestructiveDone:
		a.countDestructive(e.Actions)
	case MaintenanceSet:
		a.maintenanceSet(e)
	case Forget:
		a.forget(e)
	case TaskStatus:
		if a.peers.Queue != nil {
			ctx.Send(a.peers.Queue, e.Progress)
		}
	default:
		panic(fmt.Sprintf("module: effect %T has no case in apply", e))
	}
}

// applyDelete carries out the delete's effects.
func (a *Actor) applyDelete(ctx actor.Context, e deleteEffect) {
	switch e := e.(type) {
	case CheckRelease:
		ctx.Request(a.worker, worker.ReleaseJob{Module: a.name()})
	case Uninstall:
		ctx.Request(a.worker, worker.DeleteJob{Module: a.name()})
	case DeleteFailed:
		a.count(func(m Metrics) { m.ModuleDeleteFailed(a.name(), e.Err) })
	case DestructiveDone, Log, phaseOver, beforeDeleteHooks, releaseGone:
		panic(fmt.Sprintf("module: the core keeps the delete's %T", e))
	default:
		panic(fmt.Sprintf("module: effect %T has no case in applyDelete", e))
	}
}

// observed counts a finished module run or helm upgrade.
func (a *Actor) observed(e Observed) {
	if a.opts.Metrics == nil {
		return
	}
	if e.Helm {
		a.opts.Metrics.Helm(a.name(), e.Activation, e.Took, e.Err)
	} else {
		a.opts.Metrics.ModuleRun(a.name(), e.Activation, e.Took, e.Err)
	}
}

// countDestructive counts destructive actions on the module's release
// (logged at WARN where they happened).
func (a *Actor) countDestructive(done []worker.Destructive) {
	if a.opts.Metrics == nil {
		return
	}
	for _, d := range done {
		a.opts.Metrics.Destructive(a.name(), d)
	}
}

// watch starts the module's schedule and kubernetes bindings (their
// Synchronization runs come back to it with Sync), or stops them.
func (a *Actor) watch(ctx actor.Context, w Watch) {
	var syncTo *actor.PID
	if w.Sync {
		syncTo = ctx.Self()
	}
	if a.peers.Schedule != nil {
		ctx.Send(a.peers.Schedule, w.Hooks.Schedules(a.owner(), a.name(), w.On))
	}
	if a.peers.Kube != nil {
		ctx.Send(a.peers.Kube, w.Hooks.Monitors(messages.WatchKube{Owner: a.owner(), Module: a.name(), SyncTo: syncTo}, w.On))
	}
}

// reportDone shows a task's failure as the outcome of the message that
// ended it (the actor's flight recorder) and as its last error; a task
// that succeeded clears the last error.
func (a *Actor) reportDone(done messages.TaskDone) {
	if a.opts.Inspector == nil || a.self == nil {
		return
	}
	var err error
	if done.Err != "" {
		err = errors.New(done.Err)
	}
	a.opts.Inspector.ReportError(a.self, err)
}

func (a *Actor) count(f func(Metrics)) {
	if a.opts.Metrics != nil {
		f(a.opts.Metrics)
	}
}
