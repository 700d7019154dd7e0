package module

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/webhook"
)

// A module's webhook bindings are served and registered while it is
// enabled: in the first run since it was enabled, after its CRDs and
// before onStartup (EnsureWebhooks), so that conversions and admissions
// of its own objects are answered from its first helm run; its hooks
// answer once its Synchronization is done (WebhooksSynced, ahead of
// beforeHelm). Its delete removes them last (DropWebhooks), after
// afterDeleteHelm: the configurations are deleted, never updated through
// a review, so a module's own webhook cannot block its removal. A failure
// fails the run (or the delete), which is retried.

func (c *Core) webhooksRegistered(err error, env Env) []Effect {
	if c.run == nil || c.run.phase != EnsureWebhooks {
		return nil
	}
	if err != nil {
		return c.finish(err, env)
	}
	return c.enter(Startup, env)
}

// dropsWebhooks tells whether the running delete has yet to remove the
// module's webhooks.
func (c *Core) dropsWebhooks() bool {
	return c.HasWebhooks && c.run.task.Kind == messages.TaskModuleDelete && c.run.phase != DropWebhooks
}

func (c *Core) webhooksUnregistered(err error, env Env) []Effect {
	if c.run == nil || c.run.phase != DropWebhooks {
		return nil
	}
	if err != nil {
		return c.finish(err, env)
	}
	return append(c.disable(), c.finish(nil, env)...)
}

// webhookJob has the worker register the module's webhooks, or remove them
// (unregister): both write to the cluster.
func (a *Actor) webhookJob(ctx actor.Context, unregister bool) {
	ctx.Request(a.worker, worker.WebhookJob{Owner: a.name(), Hooks: a.core.Hooks, Unregister: unregister,
		Webhooks: a.opts.Webhooks})
}

func (a *Actor) handleWebhookResult(ctx actor.Context, r worker.WebhookResult) {
	if r.Unregister {
		a.step(ctx, WebhooksUnregistered{Err: r.Err})
		return
	}
	a.step(ctx, WebhooksRegistered{Err: r.Err})
}

// declaredWebhooks are the webhook bindings of the module's hooks, as the
// board shows them (plan lists them for a module it would enable).
func declaredWebhooks(module string, hooks hookrun.HookSet) []board.WebhookState {
	var out []board.WebhookState
	for _, h := range hooks {
		if h.Config == nil {
			continue
		}
		for _, b := range h.Config.Validating {
			out = append(out, board.WebhookState{Kind: string(webhook.Validating), Name: b.Name, Hook: h.Name,
				Path: webhook.AdmissionPath(module, b.Name)})
		}
		for _, b := range h.Config.Mutating {
			out = append(out, board.WebhookState{Kind: string(webhook.Mutating), Name: b.Name, Hook: h.Name,
				Path: webhook.AdmissionPath(module, b.Name)})
		}
		for _, b := range h.Config.Conversion {
			out = append(out, board.WebhookState{Kind: "Conversion", Name: b.Name, Hook: h.Name, Path: webhook.ConversionPath(b.CRDName)})
		}
	}
	return out
}
