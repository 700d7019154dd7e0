package bindings

import (
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The defaults of an admission binding's keys (spec/WEBHOOKS.md §3).
const (
	DefaultFailurePolicy  = admissionregistrationv1.Fail
	DefaultSideEffects    = admissionregistrationv1.SideEffectClassNone
	DefaultTimeoutSeconds = int32(10)
)

// AdmissionBinding is one entry of kubernetesValidating or
// kubernetesMutating: one webhook of the Validating- or
// MutatingWebhookConfiguration, and the binding whose runs answer it.
type AdmissionBinding struct {
	// Name is the webhook's name and the binding name in contexts.
	Name string
	// IncludeSnapshotsFrom names kubernetes bindings of the hook whose
	// objects the context carries.
	IncludeSnapshotsFrom []string
	// Group adds the snapshots of the group's kubernetes bindings; the
	// context stays Validating or Mutating, never Group.
	Group string
	// ObjectSelector is `labelSelector`; nil selects every object.
	ObjectSelector *metav1.LabelSelector
	// NamespaceSelector is `namespace.labelSelector`; nil is every
	// namespace.
	NamespaceSelector *metav1.LabelSelector
	Rules             []admissionregistrationv1.RuleWithOperations
	// FailurePolicy is Fail or Ignore (DefaultFailurePolicy).
	FailurePolicy admissionregistrationv1.FailurePolicyType
	// SideEffects is None or NoneOnDryRun (DefaultSideEffects).
	SideEffects admissionregistrationv1.SideEffectClass
	// TimeoutSeconds is what the apiserver waits for an answer
	// (DefaultTimeoutSeconds); the operator does not enforce it.
	TimeoutSeconds  int32
	MatchConditions []admissionregistrationv1.MatchCondition
}

// ConversionBinding is one entry of kubernetesCustomResourceConversion:
// conversions between versions of one custom resource.
type ConversionBinding struct {
	Name string
	// CRDName is the CustomResourceDefinition's full name, such as
	// crontabs.stable.example.com.
	CRDName string
	// Conversions are the steps this binding does; the operator chains
	// steps of all hooks to reach a desired version.
	Conversions          []ConversionRule
	IncludeSnapshotsFrom []string
	Group                string
}

// ConversionRule is one conversion step. A version is `group/version` or
// just `version`; the two forms match when their versions are equal.
type ConversionRule struct {
	FromVersion string
	ToVersion   string
}

// WebhookSnapshotNames names the kubernetes bindings whose objects the
// context of the webhook binding of type t (Validating, Mutating or
// Conversion) carries: its group's and its includeSnapshotsFrom, as
// SnapshotNames does. ok is false when it carries none or there is no
// such binding.
func (c *Config) WebhookSnapshotNames(t Type, binding string) (names []string, ok bool) {
	include, group, found := c.webhookSnapshots(t, binding)
	if !found {
		return nil, false
	}
	return c.snapshotsOf(include, group)
}

func (c *Config) webhookSnapshots(t Type, binding string) (include []string, group string, found bool) {
	switch t {
	case Validating, Mutating:
		list := c.Validating
		if t == Mutating {
			list = c.Mutating
		}
		for _, b := range list {
			if b.Name == binding {
				return b.IncludeSnapshotsFrom, b.Group, true
			}
		}
	case Conversion:
		for _, b := range c.Conversion {
			if b.Name == binding {
				return b.IncludeSnapshotsFrom, b.Group, true
			}
		}
	}
	return nil, "", false
}

// HasWebhooks tells whether the hook has any webhook binding.
func (c *Config) HasWebhooks() bool {
	return len(c.Validating)+len(c.Mutating)+len(c.Conversion) > 0
}

func (c *Config) webhooksNeedSnapshots() bool {
	for _, list := range [][]AdmissionBinding{c.Validating, c.Mutating} {
		for _, b := range list {
			if b.Group != "" || len(b.IncludeSnapshotsFrom) > 0 {
				return true
			}
		}
	}
	for _, b := range c.Conversion {
		if b.Group != "" || len(b.IncludeSnapshotsFrom) > 0 {
			return true
		}
	}
	return false
}
