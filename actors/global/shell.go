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
	"github.com/addon-actors/addon-operator/values"
	"github.com/addon-actors/addon-operator/webhook"
)

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
		a.shell.Apply(ctx, e.Effect)
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

// workerFor returns the worker of a queue, spawned on first use.
func (a *Actor) workerFor(ctx actor.Context, queue string) *actor.PID {
	if w, ok := a.workers[queue]; ok {
		return w
	}
	w := ctx.SpawnPrefix(worker.Props(worker.New(a.workCtx, a.opts.Runner, nil, a.opts.Watch), a.opts.WorkerMailbox), "worker")
	a.workers[queue] = w
	return w
}

// publish puts the global scope on the board.
func (a *Actor) publish(scope values.Scope) {
	a.opts.Board.SetGlobal(scope.Snapshot(), scope.DynamicEnabled())
	a.opts.Board.SetPatches(messages.OwnerGlobal, hookrun.PatchesJSON(scope))
}

// sendTo sends msg to pid, unless the peer is absent (tests without it).
func sendTo(ctx actor.Context, pid *actor.PID, msg any) {
	if pid != nil {
		ctx.Send(pid, msg)
	}
}
