package register

import (
	"context"
	"fmt"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/addon-actors/addon-operator/webhook"
)

// Registrar writes owners' webhook configurations and CRDs' conversion.
type Registrar struct {
	kube     kubernetes.Interface
	crds     apiextensionsclient.Interface
	prefix   string
	endpoint Endpoint
}

// New makes a registrar of configurations named configurationName-<owner>
// calling the admission server at endpoint.
func New(kube kubernetes.Interface, crds apiextensionsclient.Interface, configurationName string, endpoint Endpoint) *Registrar {
	return &Registrar{kube: kube, crds: crds, prefix: configurationName, endpoint: endpoint}
}

// Apply makes owner's configurations hold admissions (Owner fields are
// set to owner): created or updated when they differ, deleted when owner
// has no binding of their kind.
func (r *Registrar) Apply(ctx context.Context, owner string, admissions []webhook.Admission) error {
	name := ConfigurationName(r.prefix, owner)
	validating := Validating(r.prefix, owner, r.endpoint, admissions)
	err := apply(ctx, r.kube.AdmissionregistrationV1().ValidatingWebhookConfigurations(), name, validating,
		func(have, want *admissionregistrationv1.ValidatingWebhookConfiguration) bool {
			return update(&have.Webhooks, want.Webhooks, &have.ObjectMeta, want.Labels)
		})
	if err != nil {
		return fmt.Errorf("validating webhook configuration %s: %w", name, err)
	}
	mutating := Mutating(r.prefix, owner, r.endpoint, admissions)
	err = apply(ctx, r.kube.AdmissionregistrationV1().MutatingWebhookConfigurations(), name, mutating,
		func(have, want *admissionregistrationv1.MutatingWebhookConfiguration) bool {
			return update(&have.Webhooks, want.Webhooks, &have.ObjectMeta, want.Labels)
		})
	if err != nil {
		return fmt.Errorf("mutating webhook configuration %s: %w", name, err)
	}
	return nil
}

// Remove deletes owner's configurations.
func (r *Registrar) Remove(ctx context.Context, owner string) error {
	return r.Apply(ctx, owner, nil)
}

// update makes have's webhooks want's and adds want's labels to have's;
// false when it holds already (nothing to write).
func update[W any](have *[]W, want []W, meta *metav1.ObjectMeta, labels map[string]string) bool {
	if equality.Semantic.DeepEqual(*have, want) && hasLabels(meta.Labels, labels) {
		return false
	}
	*have, meta.Labels = want, withLabels(meta.Labels, labels)
	return true
}

func hasLabels(have, want map[string]string) bool {
	for k, v := range want {
		if have[k] != v {
			return false
		}
	}
	return true
}

func withLabels(have, want map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range have {
		out[k] = v
	}
	for k, v := range want {
		out[k] = v
	}
	return out
}
