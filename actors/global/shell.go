package global

import (
	"fmt"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/supervision"
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

// apply carries out one effect. Its switch has a case for every type of the
// closed set Effect (TestApplyCoversEveryEffect holds it to that): an
// effect without one is a bug, not something to ignore.
func (a *Actor) apply(ctx actor.Context, e Effect) {
	switch e := e.(type) {
	case InQueue:
		a.applyRun(ctx, e.Queue, e.Effect)
	case Reply:
		ctx.Send(e.To, e.Done)
	case Publish:
		a.publish()
	case CheckReply:
		ctx.Respond(e.Reply)
	case ConfigReply:
		if e.Reply.Err != "" {
			a.opts.Log.Error("global config rejected; the previous one stays", "err", e.Reply.Err)
		}
		ctx.Respond(e.Reply)
	case Enqueue:
		ctx.Send(a.peers.Queue, messages.Enqueue{Tasks: e.Tasks})
	case WatchKube:
		a.watchKube(ctx, e.Sync)
	case StartSchedules:
		sendTo(ctx, a.peers.Schedule, a.core.Hooks.Schedules(messages.OwnerGlobal, "", true))
	case WebhooksSynced:
		a.webhooksSynced()
	case SyncWaiting:
		a.opts.Log.Info("waiting for the Synchronization of bindings in named queues", "runs", e.Runs)
	case HooksConfigured:
		a.hooksConfigured(e)
	case RegisterWebhooks:
		a.registerWebhooks(ctx)
	case WebhooksFailed:
		a.opts.Log.Error("global hooks' webhooks", "err", e.Err)
	case Ready:
		ctx.Send(a.peers.Report, messages.OwnerReady{Owner: messages.OwnerGlobal, Err: e.Err})
	case EnsureWorker:
		a.workerFor(ctx, e.Queue)
	default:
		panic(fmt.Sprintf("global: effect %T has no case in apply", e))
	}
}

// applyRun carries out a queue's hook run effect; Committed and Finished
// never leave the core.
func (a *Actor) applyRun(ctx actor.Context, queue string, e hookrun.Effect) {
	switch e := e.(type) {
	case hookrun.GetSnapshots:
		ctx.Request(a.peers.Kube, messages.GetSnapshots{Owner: messages.OwnerGlobal, Hook: e.Hook, Tag: queue})
	case hookrun.ArmTimer:
		supervision.Deliver(a.opts.Clock, ctx.ActorSystem().Root, ctx.Self(), tokenArrived{queue: queue}, e.Wait)
	case hookrun.RunHook:
		t, _ := a.core.Current(queue)
		e.Request.Logger = a.opts.Log.With("binding", t.Binding, "queue", queue, "task", t.ID, "attempt", t.Attempts+1)
		ctx.Request(a.workerFor(ctx, queue), worker.HookJob{Request: e.Request, Binding: e.Info.Binding, Queue: queue})
	case hookrun.Ran:
		a.record(e)
	case hookrun.WriteConfigPatch:
		ctx.Request(a.peers.Config, messages.ConfigPatch{Patch: e.Patch, Hook: e.Hook, Tag: queue})
	case hookrun.Committed, hookrun.Finished:
		panic(fmt.Sprintf("global: the core keeps the hook run's %T", e))
	default:
		panic(fmt.Sprintf("global: hook run effect %T has no case in applyRun", e))
	}
}

// hooksConfigured logs the configuring of the hooks.
func (a *Actor) hooksConfigured(e HooksConfigured) {
	if e.Err != nil {
		a.opts.Log.Error("global hooks", "err", e.Err)
	}
	a.opts.Log.Info("global hooks configured", "count", e.Count)
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
