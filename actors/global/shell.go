package global

import (
	"fmt"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/actors/step"
	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/hook/bindings"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/hookrun/owner"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/supervision"
	"github.com/addon-actors/addon-operator/webhook"
)

// tokenArrived is delivered by the clock when the held run of a queue may
// go (executionMinInterval).
type tokenArrived struct{ queue string }

// step feeds ev to the core and carries out the effects.
func (a *Actor) step(ctx actor.Context, ev Event) {
	for _, e := range a.core.Step(ev, Env{Now: a.now()}) {
		a.apply(ctx, e)
	}
}

// stepOwner feeds an owner event to the core.
func (a *Actor) stepOwner(ctx actor.Context, ev owner.Event) {
	a.step(ctx, OwnerEvent{Event: ev})
}

// stepRun feeds an event of a queue's hook run to the core.
func (a *Actor) stepRun(ctx actor.Context, queue string, ev hookrun.Event) {
	a.stepOwner(ctx, owner.HookRunEvent{Queue: queue, Event: ev})
}

// apply carries out one effect. Its switch has a case for every type of the
// closed set Effect (TestApplyCoversEveryEffect holds it to that): an
// effect without one is a bug, not something to ignore.
func (a *Actor) apply(ctx actor.Context, e Effect) {
	switch e := e.(type) {
	case Owned:
		a.applyOwner(ctx, e.Effect)
	case Reply:
		ctx.Send(e.To, e.Done)
	case ConfigureHooks:
		ctx.Request(a.workerFor(ctx, messages.MainQueue), worker.ConfigureJob{Root: a.opts.HooksDir, Scope: bindings.ScopeGlobal})
	case WatchKube:
		if e.Sync {
			e.Watch.SyncTo = ctx.Self()
		}
		sendTo(ctx, a.peers.Kube, e.Watch)
	case StartSchedules:
		sendTo(ctx, a.peers.Schedule, e.Watch)
	case WebhooksSynced:
		a.opts.Webhooks.Synced(webhook.GlobalOwner)
	case RegisterWebhooks:
		ctx.Request(a.workerFor(ctx, messages.MainQueue), worker.WebhookJob{Owner: webhook.GlobalOwner,
			Hooks: e.Hooks, Webhooks: a.opts.Webhooks})
	case Ready:
		ctx.Send(a.peers.Report, messages.OwnerReady{Owner: messages.OwnerGlobal, Err: e.Err})
	case EnsureWorker:
		a.workerFor(ctx, e.Queue)
	case Log:
		step.Log(e).Write(a.opts.Log)
	default:
		panic(fmt.Sprintf("global: effect %T has no case in apply", e))
	}
}

// applyOwner carries out an effect of the core's owner.Owner; the core
// keeps RunCommitted and RunFinished.
func (a *Actor) applyOwner(ctx actor.Context, e owner.Effect) {
	switch e := e.(type) {
	case owner.CheckReply:
		ctx.Respond(e.Reply)
	case owner.ConfigReply:
		ctx.Respond(e.Reply)
	case owner.Publish:
		a.opts.Board.SetGlobal(e.Scope.Snapshot(), e.Scope.DynamicEnabled())
		a.opts.Board.SetPatches(messages.OwnerGlobal, hookrun.PatchesJSON(e.Scope))
	case owner.Enqueue:
		ctx.Send(a.peers.Queue, messages.Enqueue{Tasks: e.Tasks})
	case owner.InRun:
		a.applyRun(ctx, e)
	case owner.RunCommitted, owner.RunFinished:
		panic(fmt.Sprintf("global: the core keeps the owner's %T", e))
	default:
		panic(fmt.Sprintf("global: owner effect %T has no case in applyOwner", e))
	}
}

// applyRun carries out a queue's hook run effect; Committed and Finished
// never leave the owner.
func (a *Actor) applyRun(ctx actor.Context, in owner.InRun) {
	queue := in.Queue
	switch e := in.Effect.(type) {
	case hookrun.GetSnapshots:
		ctx.Request(a.peers.Kube, messages.GetSnapshots{Owner: messages.OwnerGlobal, Hook: e.Hook, Tag: queue})
	case hookrun.ArmTimer:
		supervision.Deliver(a.opts.Clock, ctx.ActorSystem().Root, ctx.Self(), tokenArrived{queue: queue}, e.Wait)
	case hookrun.RunHook:
		t := in.Task
		e.Request.Logger = a.opts.Log.With("binding", t.Binding, "queue", queue, "task", t.ID, "attempt", t.Attempts+1)
		ctx.Request(a.workerFor(ctx, queue), worker.HookJob{Request: e.Request, Binding: e.Info.Binding, Queue: queue})
	case hookrun.Ran:
		a.record(e)
	case hookrun.WriteConfigPatch:
		ctx.Request(a.peers.Config, messages.ConfigPatch{Patch: e.Patch, Hook: e.Hook, Tag: queue})
	case hookrun.Committed, hookrun.Finished:
		panic(fmt.Sprintf("global: the owner keeps the hook run's %T", e))
	default:
		panic(fmt.Sprintf("global: hook run effect %T has no case in applyRun", e))
	}
}

// workerFor returns the worker of a queue, spawned on first use.
func (a *Actor) workerFor(ctx actor.Context, queue string) *actor.PID {
	if w, ok := a.workers[queue]; ok {
		return w
	}
	w := ctx.SpawnPrefix(worker.Props(worker.New(a.workCtx, a.opts.Runner, nil, a.opts.Watch), a.opts.WorkerMailbox), "worker")
	a.workers[queue] = w
	return w
}

func (a *Actor) record(e hookrun.Ran) {
	if a.opts.Board != nil {
		a.opts.Board.RecordHookRun(messages.OwnerGlobal, e.Hook, e.Contexts, e.Err)
	}
	if a.opts.Metrics != nil {
		a.opts.Metrics.HookRun(hookrun.HookRun{Hook: e.Hook, Info: e.Info, Result: e.Result, Err: e.Err})
	}
}

// sendTo sends msg to pid, unless the peer is absent (tests without it).
func sendTo(ctx actor.Context, pid *actor.PID, msg any) {
	if pid != nil {
		ctx.Send(pid, msg)
	}
}
