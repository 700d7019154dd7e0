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

func (a *Actor) registerWebhooks(ctx actor.Context) {
	ctx.Request(a.workerFor(ctx, messages.MainQueue), worker.WebhookJob{Owner: webhook.GlobalOwner,
		Hooks: a.core.Hooks, Webhooks: a.opts.Webhooks})
}

// webhooksSynced lets the global hooks answer reviews.
func (a *Actor) webhooksSynced() {
	if a.core.servesWebhooks() {
		a.opts.Webhooks.Synced(webhook.GlobalOwner)
	}
}
