package worker

import (
	"context"
	"fmt"

	"github.com/addon-actors/addon-operator/hookrun"
)

// Webhooks serves and registers owners' webhook bindings (the operator's
// webhook servers and the configurations in the cluster). Owner is a
// module name or webhook.GlobalOwner.
type Webhooks interface {
	// Register serves the hooks' webhook bindings and puts them into the
	// cluster; hooks without kubernetes bindings are ready at once.
	Register(ctx context.Context, owner string, hooks hookrun.HookSet) error
	// Synced marks every hook of owner ready: its Synchronization is done.
	Synced(owner string)
	// Unregister stops serving owner's bindings and takes them out of the
	// cluster: its configurations, and the conversion of the CRDs its
	// hooks convert (also when this process never registered them: a
	// module disabled while the operator was down).
	Unregister(ctx context.Context, owner string, hooks hookrun.HookSet) error
	// Forget is Unregister for an owner whose actor is going away: it
	// returns at once, the cluster is cleaned in the background.
	Forget(owner string)
}

type (
	// WebhookJob registers (or, with Unregister, removes) the webhook
	// bindings of Owner's Hooks with Webhooks.
	WebhookJob struct {
		Owner      string
		Hooks      hookrun.HookSet
		Unregister bool
		Webhooks   Webhooks
	}
	WebhookResult struct {
		Unregister bool
		Err        error
	}
)

func (w *Worker) webhooks(job WebhookJob) WebhookResult {
	if job.Unregister {
		if err := job.Webhooks.Unregister(w.ctx, job.Owner, job.Hooks); err != nil {
			return WebhookResult{Unregister: true, Err: fmt.Errorf("remove webhooks of %s: %w", job.Owner, err)}
		}
		return WebhookResult{Unregister: true}
	}
	if err := job.Webhooks.Register(w.ctx, job.Owner, job.Hooks); err != nil {
		return WebhookResult{Err: fmt.Errorf("register webhooks of %s: %w", job.Owner, err)}
	}
	return WebhookResult{}
}
