package bindings

import "encoding/json"

// The defaults of an admission binding's keys (spec/WEBHOOKS.md §3).
const (
	DefaultFailurePolicy  = "Fail"
	DefaultSideEffects    = "None"
	DefaultTimeoutSeconds = int32(10)
)

// The model is plain data (the messages carry it): selectors, rules and
// match conditions mirror admissionregistration/v1's and meta/v1's JSON
// field for field, so a JSON round trip gives the API's types.

// As converts between the model's mirror types and the API's (the same
// JSON, either way): As[*metav1.LabelSelector](b.ObjectSelector). Nil stays
// nil.
func As[T any](v any) T {
	var out T
	if data, err := json.Marshal(v); err == nil {
		_ = json.Unmarshal(data, &out) // the same JSON fields: it cannot fail
	}
	return out
}

// LabelSelector is meta/v1's LabelSelector.
type LabelSelector struct {
	MatchLabels      map[string]string          `json:"matchLabels,omitempty"`
	MatchExpressions []LabelSelectorRequirement `json:"matchExpressions,omitempty"`
}

// LabelSelectorRequirement is one matchExpressions entry.
type LabelSelectorRequirement struct {
	Key      string   `json:"key"`
	Operator string   `json:"operator"`
	Values   []string `json:"values,omitempty"`
}

// Rule is admissionregistration/v1's RuleWithOperations.
type Rule struct {
	Operations  []string `json:"operations,omitempty"`
	APIGroups   []string `json:"apiGroups,omitempty"`
	APIVersions []string `json:"apiVersions,omitempty"`
	Resources   []string `json:"resources,omitempty"`
	Scope       *string  `json:"scope,omitempty"`
}

// MatchCondition is admissionregistration/v1's MatchCondition.
type MatchCondition struct {
	Name       string `json:"name"`
	Expression string `json:"expression"`
}

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
	ObjectSelector *LabelSelector
	// NamespaceSelector is `namespace.labelSelector`; nil is every
	// namespace.
	NamespaceSelector *LabelSelector
	Rules             []Rule
	// FailurePolicy is Fail or Ignore (DefaultFailurePolicy).
	FailurePolicy string
	// SideEffects is None or NoneOnDryRun (DefaultSideEffects).
	SideEffects string
	// TimeoutSeconds is what the apiserver waits for an answer
	// (DefaultTimeoutSeconds); the operator does not enforce it.
	TimeoutSeconds  int32
	MatchConditions []MatchCondition
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
