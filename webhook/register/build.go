package register

import (
	"sort"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/addon-actors/addon-operator/webhook"
)

// Labels on the configurations, to find them by owner.
const (
	LabelManagedBy = "app.kubernetes.io/managed-by"
	LabelOwner     = "addon-operator.webhook/owner"
	managedBy      = "addon-operator"
)

// ConfigurationName is the name of owner's configurations.
func ConfigurationName(prefix, owner string) string { return prefix + "-" + owner }

// reviewVersions are shell-operator's admissionReviewVersions.
func reviewVersions() []string { return []string{"v1", "v1beta1"} }

func objectMeta(prefix, owner string) metav1.ObjectMeta {
	return metav1.ObjectMeta{Name: ConfigurationName(prefix, owner),
		Labels: map[string]string{LabelManagedBy: managedBy, LabelOwner: owner}}
}

// sorted returns the admissions of kind, by name.
func sorted(admissions []webhook.Admission, kind webhook.Kind) []webhook.Admission {
	var out []webhook.Admission
	for _, a := range admissions {
		if a.Kind == kind {
			out = append(out, a)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// The fields the apiserver defaults are filled in (defaults.go), so that a
// configuration read back compares equal to the one built.

// Validating builds owner's ValidatingWebhookConfiguration (nil: owner has
// no validating binding).
func Validating(prefix, owner string, e Endpoint, admissions []webhook.Admission) *admissionregistrationv1.ValidatingWebhookConfiguration {
	var hooks []admissionregistrationv1.ValidatingWebhook
	for _, a := range sorted(admissions, webhook.Validating) {
		c := common(owner, e, a)
		hooks = append(hooks, admissionregistrationv1.ValidatingWebhook{Name: a.Name, ClientConfig: c.clientConfig,
			Rules: c.rules, FailurePolicy: c.failurePolicy, MatchPolicy: c.matchPolicy,
			NamespaceSelector: c.namespaceSelector, ObjectSelector: c.objectSelector, SideEffects: c.sideEffects,
			TimeoutSeconds: c.timeoutSeconds, AdmissionReviewVersions: reviewVersions(), MatchConditions: a.MatchConditions})
	}
	if len(hooks) == 0 {
		return nil
	}
	return &admissionregistrationv1.ValidatingWebhookConfiguration{ObjectMeta: objectMeta(prefix, owner), Webhooks: hooks}
}

// Mutating builds owner's MutatingWebhookConfiguration (nil: owner has no
// mutating binding).
func Mutating(prefix, owner string, e Endpoint, admissions []webhook.Admission) *admissionregistrationv1.MutatingWebhookConfiguration {
	var hooks []admissionregistrationv1.MutatingWebhook
	never := admissionregistrationv1.NeverReinvocationPolicy
	for _, a := range sorted(admissions, webhook.Mutating) {
		c := common(owner, e, a)
		hooks = append(hooks, admissionregistrationv1.MutatingWebhook{Name: a.Name, ClientConfig: c.clientConfig,
			Rules: c.rules, FailurePolicy: c.failurePolicy, MatchPolicy: c.matchPolicy,
			NamespaceSelector: c.namespaceSelector, ObjectSelector: c.objectSelector, SideEffects: c.sideEffects,
			TimeoutSeconds: c.timeoutSeconds, AdmissionReviewVersions: reviewVersions(),
			ReinvocationPolicy: &never, MatchConditions: a.MatchConditions})
	}
	if len(hooks) == 0 {
		return nil
	}
	return &admissionregistrationv1.MutatingWebhookConfiguration{ObjectMeta: objectMeta(prefix, owner), Webhooks: hooks}
}
