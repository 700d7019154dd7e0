package module

import (
	"fmt"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/actors/worker"
)

// applyWebhooks carries out the effects of the crds/ and webhooks
// (webhooks.go): both write to the cluster.
func (a *Actor) applyWebhooks(ctx actor.Context, e webhookEffect) {
	switch e := e.(type) {
	case ApplyCRDs:
		ctx.Request(a.worker, worker.CRDJob{Module: a.name(), CRDs: e.CRDs, Applier: a.opts.CRDs})
	case RegisterWebhooks:
		ctx.Request(a.worker, worker.WebhookJob{Owner: a.name(), Hooks: e.Hooks, Webhooks: a.opts.Webhooks})
	case UnregisterWebhooks:
		ctx.Request(a.worker, worker.WebhookJob{Owner: a.name(), Hooks: e.Hooks, Unregister: true, Webhooks: a.opts.Webhooks})
	case WebhooksSynced:
		a.opts.Webhooks.Synced(a.name())
	case phaseOver:
		panic(fmt.Sprintf("module: the core keeps the webhooks' %T", e))
	default:
		panic(fmt.Sprintf("module: effect %T has no case in applyWebhooks", e))
	}
}

func (a *Actor) handleWebhookResult(ctx actor.Context, r worker.WebhookResult) {
	if r.Unregister {
		a.step(ctx, WebhookEvent{Event: WebhooksUnregistered{Err: r.Err}})
		return
	}
	a.step(ctx, WebhookEvent{Event: WebhooksRegistered{Err: r.Err}})
}
