package register

import (
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/addon-actors/addon-operator/webhook"
)

// webhookFields are the fields validating and mutating webhooks share,
// with shell-operator's and the apiserver's defaults filled in.
type webhookFields struct {
	clientConfig      admissionregistrationv1.WebhookClientConfig
	rules             []admissionregistrationv1.RuleWithOperations
	failurePolicy     *admissionregistrationv1.FailurePolicyType
	matchPolicy       *admissionregistrationv1.MatchPolicyType
	namespaceSelector *metav1.LabelSelector
	objectSelector    *metav1.LabelSelector
	sideEffects       *admissionregistrationv1.SideEffectClass
	timeoutSeconds    *int32
}

func common(owner string, e Endpoint, a webhook.Admission) webhookFields {
	a.Owner = owner
	fail := admissionregistrationv1.Fail
	equivalent := admissionregistrationv1.Equivalent
	none := admissionregistrationv1.SideEffectClassNone
	timeout := a.Timeout()
	f := webhookFields{clientConfig: e.admission(a.Path()), rules: rules(a.Rules), failurePolicy: &fail,
		matchPolicy: &equivalent, namespaceSelector: selector(a.NamespaceSelector),
		objectSelector: selector(a.ObjectSelector), sideEffects: &none, timeoutSeconds: &timeout}
	if a.FailurePolicy != nil {
		f.failurePolicy = a.FailurePolicy
	}
	if a.SideEffects != nil {
		f.sideEffects = a.SideEffects
	}
	return f
}

// rules copies rules with the apiserver's default scope "*".
func rules(in []admissionregistrationv1.RuleWithOperations) []admissionregistrationv1.RuleWithOperations {
	out := make([]admissionregistrationv1.RuleWithOperations, len(in))
	for i, r := range in {
		out[i] = *r.DeepCopy()
		if out[i].Scope == nil {
			all := admissionregistrationv1.AllScopes
			out[i].Scope = &all
		}
	}
	return out
}

// selector is the apiserver's default: an empty selector matches all.
func selector(s *metav1.LabelSelector) *metav1.LabelSelector {
	if s == nil {
		return &metav1.LabelSelector{}
	}
	return s.DeepCopy()
}
