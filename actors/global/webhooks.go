package global

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/webhook"
)

// The global hooks' webhook bindings are registered once their hooks are
// configured, before the actor reports ready (a failure is the start-up's
// error, as in shell-operator), and live as long as the operator; their
// hooks answer once the global Synchronization is done.

func (a *Actor) servesWebhooks() bool {
	return a.opts.Webhooks != nil && a.core.Hooks.HasWebhooks()
}

func (a *Actor) registerWebhooks(ctx actor.Context) {
	ctx.Request(a.workerFor(ctx, messages.MainQueue), worker.WebhookJob{Owner: webhook.GlobalOwner,
		Hooks: a.core.Hooks, Webhooks: a.opts.Webhooks})
}

func (a *Actor) handleWebhooksRegistered(ctx actor.Context, r worker.WebhookResult) {
	ready := messages.OwnerReady{Owner: messages.OwnerGlobal}
	if r.Err != nil {
		ready.Err = r.Err.Error()
		a.opts.Log.Error("global hooks' webhooks", "err", r.Err)
	}
	ctx.Send(a.peers.Report, ready)
}

// webhooksSynced lets the global hooks answer reviews.
func (a *Actor) webhooksSynced() {
	if a.servesWebhooks() {
		a.opts.Webhooks.Synced(webhook.GlobalOwner)
	}
}
