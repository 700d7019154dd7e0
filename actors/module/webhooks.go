package module

import (
	"fmt"

	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/chartrun/crds"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/webhook"
)

// webhooks is the sub-machine of what a module applies and serves while
// it is enabled. Its crds/ are applied in the first run since it was
// enabled (every enabled module's at the first converge), before
// onStartup, the bindings' Synchronization, beforeHelm and helm
// (EnsureCRDs), so that the hooks may watch their own kinds from the
// start; a module that stays enabled is not applied again. Its webhook
// bindings are served and registered next (EnsureWebhooks), so that
// conversions and admissions of its own objects are answered from its
// first helm run; its hooks answer once its Synchronization is done
// (WebhooksSynced, ahead of beforeHelm). Its delete removes them last
// (DropWebhooks), after afterDeleteHelm: the configurations are deleted,
// never updated through a review, so a module's own webhook cannot block
// its removal. A failure fails the run (or the delete), which is retried.
type webhooks struct {
	// canCRDs, canServe: there is a CRD applier, a webhook server.
	canCRDs, canServe bool
	crds              []crds.CRD
	hooks             hookrun.HookSet
	// hasCRDs: the module has crds/ to apply; hasWebhooks: its hooks have
	// webhook bindings to serve.
	hasCRDs, hasWebhooks bool
}

// configured takes the module's configured hooks and crds/.
func (w *webhooks) configured(hooks hookrun.HookSet, c []crds.CRD) {
	w.crds, w.hooks = c, hooks
	w.hasCRDs = len(c) > 0 && w.canCRDs
	w.hasWebhooks = hooks.HasWebhooks() && w.canServe
}

// webhookEvent is an input of webhooks: a phase of the run entered, or
// the worker's result of one, with the phase the run is in.
type webhookEvent interface{ webhookEvent() }

// phaseEntered: the run entered Phase.
type phaseEntered struct{ Phase Phase }

func (phaseEntered) webhookEvent() {}

// CRDsApplied is the worker's CRDs result.
type CRDsApplied struct{ Err error }

func (CRDsApplied) webhookEvent() {}

// WebhooksRegistered is the worker's result of the registration.
type WebhooksRegistered struct{ Err error }

func (WebhooksRegistered) webhookEvent() {}

// WebhooksUnregistered is the worker's result of the removal.
type WebhooksUnregistered struct{ Err error }

func (WebhooksUnregistered) webhookEvent() {}

// webhookEffect is an output of webhooks.
type webhookEffect interface{ webhookEffect() }

// ApplyCRDs applies the module's crds/ (CRDsApplied follows).
type ApplyCRDs struct{ CRDs []crds.CRD }

func (ApplyCRDs) webhookEffect() {}

// RegisterWebhooks serves and registers the webhook bindings of Hooks
// (WebhooksRegistered follows).
type RegisterWebhooks struct{ Hooks hookrun.HookSet }

func (RegisterWebhooks) webhookEffect() {}

// UnregisterWebhooks removes the webhook bindings of Hooks
// (WebhooksUnregistered follows).
type UnregisterWebhooks struct{ Hooks hookrun.HookSet }

func (UnregisterWebhooks) webhookEffect() {}

// WebhooksSynced: the module's Synchronization is done, its webhook
// hooks may answer reviews.
type WebhooksSynced struct{}

func (WebhooksSynced) webhookEffect() {}

// phaseOver: the phase is over, with Err, and the run goes on to Next
// (Idle: the phase that follows it).
type phaseOver struct {
	Err  error
	Next Phase
}

func (phaseOver) webhookEffect() {}

// Step takes ev in the run's phase and returns what it calls for; a
// result that is not the phase's is late, and calls for nothing.
func (w *webhooks) Step(ev webhookEvent, phase Phase) []webhookEffect {
	switch e := ev.(type) {
	case phaseEntered:
		return w.entered(e.Phase)
	case CRDsApplied:
		return w.over(phase, EnsureCRDs, e.Err, w.afterCRDs())
	case WebhooksRegistered:
		return w.over(phase, EnsureWebhooks, e.Err, Startup)
	case WebhooksUnregistered:
		return w.over(phase, DropWebhooks, e.Err, Idle)
	default:
		panic(fmt.Sprintf("module: event %T has no case in webhooks.Step", ev))
	}
}

func (w *webhooks) entered(p Phase) []webhookEffect {
	switch p {
	case EnsureCRDs:
		return []webhookEffect{ApplyCRDs{CRDs: w.crds}}
	case EnsureWebhooks:
		return []webhookEffect{RegisterWebhooks{Hooks: w.hooks}}
	case DropWebhooks:
		return []webhookEffect{UnregisterWebhooks{Hooks: w.hooks}}
	case BeforeHelm:
		if w.hasWebhooks {
			return []webhookEffect{WebhooksSynced{}}
		}
	}
	return nil
}

func (w *webhooks) over(phase, of Phase, err error, next Phase) []webhookEffect {
	if phase != of {
		return nil
	}
	return []webhookEffect{phaseOver{Err: err, Next: next}}
}

// firstPhase is where a run starts while no run has completed since the
// module was enabled.
func (w *webhooks) firstPhase() Phase {
	if w.hasCRDs {
		return EnsureCRDs
	}
	return w.afterCRDs()
}

// afterCRDs is the phase after EnsureCRDs: the webhooks are registered
// once the CRDs they convert exist.
func (w *webhooks) afterCRDs() Phase {
	if w.hasWebhooks {
		return EnsureWebhooks
	}
	return Startup
}

// drops tells whether a delete in phase has yet to remove the module's
// webhooks.
func (w *webhooks) drops(phase Phase) bool { return w.hasWebhooks && phase != DropWebhooks }

// stepWebhooks steps the webhooks sub-machine in the running task's phase
// and takes back what concerns the core: the phase's end.
func (c *Core) stepWebhooks(ev webhookEvent, env Env) []Effect {
	return absorb(c.serve.Step(ev, c.Phase()), func(e webhookEffect) []Effect {
		if over, ok := e.(phaseOver); ok {
			return c.phaseOver(over, env)
		}
		return []Effect{WebhookEffect{Effect: e}}
	})
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
