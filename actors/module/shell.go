package module

import (
	"errors"
	"fmt"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/supervision"
)

// tokenArrived is delivered by the clock when a held hook run may go.
type tokenArrived struct{}

// UninstalledMessage is the message of the WARN record of the uninstall of
// a disabled module's release.
const UninstalledMessage = "uninstalled release of disabled module"

// step feeds ev to the core with the inputs as published now, and carries
// out the effects.
func (a *Actor) step(ctx actor.Context, ev Event) {
	env := Env{Now: a.now()}
	if a.opts.Board != nil {
		env.Global, env.Enabled = a.opts.Board.Global(), a.opts.Board.EnabledModules()
	}
	for _, e := range a.core.Step(ev, env) {
		a.apply(ctx, e)
	}
}

// apply carries out one effect. Its switch has a case for every type of the
// closed set Effect (TestApplyCoversEveryEffect holds it to that): an
// effect without one is a bug, not something to ignore. Those that only
// log go to applyLog; those of the module's own life to applyLife.
func (a *Actor) apply(ctx actor.Context, e Effect) {
	switch e := e.(type) {
	case HookEffect:
		a.applyHook(ctx, e.Effect)
	case RunHelm:
		ctx.Request(a.worker, a.helmJob(e))
	case CheckRelease:
		ctx.Request(a.worker, worker.ReleaseJob{Module: a.name()})
	case Uninstall:
		ctx.Request(a.worker, worker.DeleteJob{Module: a.name()})
	case ApplyCRDs:
		ctx.Request(a.worker, worker.CRDJob{Module: a.name(), CRDs: a.crds, Applier: a.opts.CRDs})
	case CheckObjects:
		ctx.Request(a.worker, worker.CheckJob{Module: a.name(), Drift: a.core.DriftMode != DriftOff, Secrets: a.secrets()})
	case Watch:
		a.watch(ctx, e)
	case Reply:
		a.reportDone(e.Done)
		ctx.Send(e.To, e.Done)
	case Publish:
		a.publish()
	case ConfigReply:
		ctx.Respond(e.Reply)
	case CheckReply:
		ctx.Respond(e.Reply)
	case Enqueue:
		ctx.Send(a.peers.Queue, messages.Enqueue{Tasks: e.Tasks})
	case RegisterWebhooks:
		a.webhookJob(ctx, false)
	case UnregisterWebhooks:
		a.webhookJob(ctx, true)
	case WebhooksSynced:
		a.opts.Webhooks.Synced(a.name())
	case Observed:
		a.observed(e)
	case DeleteFailed:
		a.count(func(m Metrics) { m.ModuleDeleteFailed(a.name(), e.Err) })
	case DestructiveDone:
		a.countDestructive(e.Actions)
	case ArmCheck:
		a.scheduleCheck(ctx)
	case RestoreDrift:
		ctx.Request(a.worker, worker.RestoreJob{Module: a.name(), Drift: e.Drift})
	case DriftCounted:
		a.count(func(m Metrics) { m.DriftedObjects(a.name(), e.Objects) })
	case HelmUpgraded, Uninstalled, TaskFailed, HookFailureAllowed, CheckFailed, AbsentFound, HelmSkipped, MaintenanceSet,
		DriftJudged, DriftCleared:
		a.applyLog(e)
	case StartFailed, Ready, TaskDropped, RunEnabledScript, EnabledReply, Forget, TaskStatus:
		a.applyLife(ctx, e)
	case ArmReconfigure, Reconfigure, Recovered:
		a.applyReconfigure(ctx, e)
	default:
		panic(fmt.Sprintf("module: effect %T has no case in apply", e))
	}
}

// applyLog logs (and counts) what the core tells.
func (a *Actor) applyLog(e Effect) {
	switch e := e.(type) {
	case HelmUpgraded:
		a.log.Info("helm", "upgraded", e.Outcome.Upgraded, "revision", e.Outcome.Revision, "reason", e.Outcome.Reason)
	case Uninstalled:
		a.log.Warn(UninstalledMessage, "release", a.name(), "revision", e.Removal.Revision,
			"status", e.Removal.Status, "reason", e.Reason)
	case TaskFailed:
		a.taskFailed(e)
	case HookFailureAllowed:
		a.log.Warn("hook failed; its binding allows failure, the run goes on", "hook", e.Hook,
			"binding", e.Binding, "err", e.Err)
	case CheckFailed:
		a.log.Warn("release check", "err", e.Err)
	case AbsentFound:
		a.log.Info("release objects are absent; queueing a module run", "objects", e.Objects)
	case HelmSkipped:
		a.log.Info(HelmSkippedMessage, "state", e.State, "revision", a.core.State.Revision)
	case MaintenanceSet:
		a.maintenanceSet(e)
	case DriftJudged:
		a.driftJudged(e)
	case DriftCleared:
		a.log.Info("drift cleared: helm wrote the release", "objects", e.Objects)
	default:
		panic(fmt.Sprintf("module: effect %T has no case in applyLog", e))
	}
}

// applyLife carries out the effects of the module's own life (start,
// discovery, removal) and its task's status.
func (a *Actor) applyLife(ctx actor.Context, e Effect) {
	switch e := e.(type) {
	case StartFailed:
		a.log.Error(StartFailedMessage, "err", e.Err)
		a.count(func(m Metrics) { m.ModuleFailed(a.name(), e.Err) })
	case Ready:
		ctx.Send(a.peers.Report, messages.OwnerReady{Owner: a.owner(), Err: e.Err})
	case TaskDropped:
		a.log.Error("task dropped: the module failed to start", "task", e.Task.Kind, "err", e.Err)
		ctx.Send(e.To, messages.TaskDone{ID: e.Task.ID, Queue: e.Task.Queue})
	case RunEnabledScript:
		a.runEnabledScript(ctx, e)
	case EnabledReply:
		ctx.Send(e.To, e.Checked)
	case Forget:
		a.forget(e)
	case TaskStatus:
		if a.peers.Queue != nil {
			ctx.Send(a.peers.Queue, e.Progress)
		}
	default:
		panic(fmt.Sprintf("module: effect %T has no case in applyLife", e))
	}
}

// applyHook carries out a hook run's effect; Committed and Finished never
// leave the core.
func (a *Actor) applyHook(ctx actor.Context, e hookrun.Effect) {
	switch e := e.(type) {
	case hookrun.GetSnapshots:
		ctx.Request(a.peers.Kube, messages.GetSnapshots{Owner: a.owner(), Hook: e.Hook})
	case hookrun.ArmTimer:
		supervision.Deliver(a.opts.Clock, ctx.ActorSystem().Root, ctx.Self(), tokenArrived{}, e.Wait)
	case hookrun.RunHook:
		a.runHook(ctx, e)
	case hookrun.Ran:
		a.record(e)
	case hookrun.WriteConfigPatch:
		ctx.Request(a.peers.Config, messages.ConfigPatch{Patch: e.Patch, Hook: e.Hook})
	case hookrun.Committed, hookrun.Finished:
		panic(fmt.Sprintf("module: the core keeps the hook run's %T", e))
	default:
		panic(fmt.Sprintf("module: hook run effect %T has no case in applyHook", e))
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

// taskFailed logs a failed task, at WARN when the queue drops it.
func (a *Actor) taskFailed(e TaskFailed) {
	if e.Allowed {
		a.log.Warn("task failed; its binding allows failure", "err", e.Err)
		return
	}
	a.log.Error("task failed", "err", e.Err)
}

// runHook sends the hook run to the worker, with a logger that names the
// task.
func (a *Actor) runHook(ctx actor.Context, e hookrun.RunHook) {
	t, _ := a.core.Current()
	e.Request.Logger = a.log.With("binding", e.Info.Binding, "queue", e.Info.Queue, "task", t.ID, "attempt", t.Attempts+1)
	ctx.Request(a.worker, worker.HookJob{Request: e.Request, Binding: e.Info.Binding, Module: a.name(), Queue: e.Info.Queue})
}

func (a *Actor) record(e hookrun.Ran) {
	if a.opts.Board != nil {
		a.opts.Board.RecordHookRun(a.owner(), e.Hook, e.Contexts, e.Err)
	}
	if a.opts.Metrics != nil {
		a.opts.Metrics.HookRun(hookrun.HookRun{Module: a.name(), Hook: e.Hook, Info: e.Info, Result: e.Result, Err: e.Err})
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
		ctx.Send(a.peers.Schedule, a.core.Hooks.Schedules(a.owner(), a.name(), w.On))
	}
	if a.peers.Kube != nil {
		ctx.Send(a.peers.Kube, a.core.Hooks.Monitors(messages.WatchKube{Owner: a.owner(), Module: a.name(), SyncTo: syncTo}, w.On))
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
