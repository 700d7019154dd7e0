package global

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/supervision"
)

// tokenArrived is delivered by the clock when the held run of a queue may
// go (executionMinInterval).
type tokenArrived struct{ queue string }

// stepRun feeds ev to the hook run of queue r and carries out its effects.
func (a *Actor) stepRun(ctx actor.Context, r *run, ev hookrun.Event) {
	for _, e := range r.core.Step(ev) {
		switch e := e.(type) {
		case hookrun.GetSnapshots:
			ctx.Request(a.peers.Kube, messages.GetSnapshots{Owner: messages.OwnerGlobal, Hook: e.Hook, Tag: r.queue})
		case hookrun.ArmTimer:
			supervision.Deliver(a.opts.Clock, ctx.ActorSystem().Root, ctx.Self(), tokenArrived{queue: r.queue}, e.Wait)
		case hookrun.RunHook:
			ctx.Request(r.worker, worker.HookJob{Request: e.Request, Binding: e.Info.Binding, Queue: r.queue})
		case hookrun.Ran:
			a.record(e)
		case hookrun.Committed:
			a.scope = e.Scope
			a.publish()
			r.changed = e.ValuesChanged
		case hookrun.WriteConfigPatch:
			ctx.Request(a.peers.Config, messages.ConfigPatch{Patch: e.Patch, Hook: e.Hook, Tag: r.queue})
		case hookrun.Finished:
			a.finish(ctx, r, e.Err)
		}
	}
}

func (a *Actor) record(e hookrun.Ran) {
	if a.opts.Board != nil {
		a.opts.Board.RecordHookRun(messages.OwnerGlobal, e.Hook, e.Contexts, e.Err)
	}
	if a.opts.Metrics != nil {
		a.opts.Metrics.HookRun(hookrun.HookRun{Hook: e.Hook, Info: e.Info, Result: e.Result, Err: e.Err})
	}
}

func (a *Actor) handleHookResult(ctx actor.Context, msg worker.HookResult) {
	if r, ok := a.runs[msg.Queue]; ok {
		a.stepRun(ctx, r, hookrun.HookDone{Result: msg.Result, Err: msg.Err, Scope: a.scope})
	}
}

func (a *Actor) handleSnapshots(ctx actor.Context, msg messages.HookSnapshots) {
	if r, ok := a.runs[msg.Tag]; ok {
		a.stepRun(ctx, r, hookrun.SnapshotsRead{Snapshots: msg.Snapshots, Now: a.now()})
	}
}

func (a *Actor) handleConfigPatchDone(ctx actor.Context, msg messages.ConfigPatchDone) {
	if r, ok := a.runs[msg.Tag]; ok {
		a.stepRun(ctx, r, hookrun.ConfigWritten{Err: msg.Err})
	}
}

func (a *Actor) handleTokenArrived(ctx actor.Context, msg tokenArrived) {
	if r, ok := a.runs[msg.queue]; ok {
		a.stepRun(ctx, r, hookrun.TokenArrived{})
	}
}
