package app

import (
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/hook/bindings"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/webhook"
)

// webhookBindings are the webhook bindings of an owner's hooks, as the
// server and the registrar take them.
func webhookBindings(owner string, hooks hookrun.HookSet) ([]webhook.Admission, []webhook.Conversion) {
	var adm []webhook.Admission
	var conv []webhook.Conversion
	for _, h := range hooks {
		if h.Config == nil {
			continue
		}
		for _, b := range h.Config.Validating {
			adm = append(adm, admission(owner, h.Name, webhook.Validating, b))
		}
		for _, b := range h.Config.Mutating {
			adm = append(adm, admission(owner, h.Name, webhook.Mutating, b))
		}
		for _, b := range h.Config.Conversion {
			conv = append(conv, conversion(owner, h.Name, b))
		}
	}
	return adm, conv
}

// admission is a binding as the server and the registrar take it: the
// model's plain selectors, rules and conditions become the API's types
// (the same JSON).
func admission(owner, hook string, kind webhook.Kind, b bindings.AdmissionBinding) webhook.Admission {
	a := webhook.Admission{Owner: owner, Hook: hook, Name: b.Name, Kind: kind,
		Rules: bindings.As[[]admissionregistrationv1.RuleWithOperations](b.Rules), TimeoutSeconds: b.TimeoutSeconds,
		ObjectSelector:    bindings.As[*metav1.LabelSelector](b.ObjectSelector),
		NamespaceSelector: bindings.As[*metav1.LabelSelector](b.NamespaceSelector),
		MatchConditions:   bindings.As[[]admissionregistrationv1.MatchCondition](b.MatchConditions)}
	if b.FailurePolicy != "" {
		fp := admissionregistrationv1.FailurePolicyType(b.FailurePolicy)
		a.FailurePolicy = &fp
	}
	if b.SideEffects != "" {
		se := admissionregistrationv1.SideEffectClass(b.SideEffects)
		a.SideEffects = &se
	}
	return a
}

func conversion(owner, hook string, b bindings.ConversionBinding) webhook.Conversion {
	c := webhook.Conversion{Owner: owner, Hook: hook, Name: b.Name, CRDName: b.CRDName}
	for _, r := range b.Conversions {
		c.Rules = append(c.Rules, webhook.ConversionRule{From: r.FromVersion, To: r.ToVersion})
	}
	return c
}

// crdNames are the CRDs the conversions convert, each once, in order.
func crdNames(conv []webhook.Conversion) []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range conv {
		if !seen[c.CRDName] {
			seen[c.CRDName] = true
			out = append(out, c.CRDName)
		}
	}
	return out
}

// immediatelyReady are the hooks that answer reviews from the start:
// those without kubernetes bindings (no Synchronization to wait for).
func immediatelyReady(hooks hookrun.HookSet) []string {
	var out []string
	for _, h := range hooks {
		if h.Config != nil && h.Config.HasWebhooks() && len(h.Config.Kubernetes) == 0 {
			out = append(out, h.Name)
		}
	}
	return out
}

// keptConversions are the conversions of the CRDs whose conversion must
// still be served.
func keptConversions(conv []webhook.Conversion, keep map[string]bool) []webhook.Conversion {
	var out []webhook.Conversion
	for _, c := range conv {
		if keep[c.CRDName] {
			out = append(out, c)
		}
	}
	return out
}

// webhookStates are an owner's webhooks as the board shows them.
func webhookStates(o ownerWebhooks) []board.WebhookState {
	var out []board.WebhookState
	for _, a := range o.admissions {
		out = append(out, board.WebhookState{Kind: string(a.Kind), Name: a.Name, Hook: a.Hook, Path: a.Path(), Ready: o.ready[a.Hook]})
	}
	for _, c := range o.conversion {
		out = append(out, board.WebhookState{Kind: "Conversion", Name: c.Name, Hook: c.Hook, Path: c.Path(),
			Ready: o.ready[c.Hook], Kept: o.kept})
	}
	return out
}
