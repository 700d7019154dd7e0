package hookconfig

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/addon-actors/addon-operator/hook/bindings"
)

// admissionRaw is one entry of kubernetesValidating or kubernetesMutating
// as shell-operator's v1 schema has it (spec/WEBHOOKS.md §3).
type admissionRaw struct {
	Name                 string                 `json:"name"`
	IncludeSnapshotsFrom *[]string              `json:"includeSnapshotsFrom"`
	Group                string                 `json:"group"`
	LabelSelector        *metav1.LabelSelector  `json:"labelSelector"`
	Namespace            *admissionNamespaceRaw `json:"namespace"`
	Rules                *[]bindings.Rule       `json:"rules"`
	FailurePolicy        *string                `json:"failurePolicy"`
	SideEffects          *string                `json:"sideEffects"`
	TimeoutSeconds       *int32                 `json:"timeoutSeconds"`
	// MatchConditions items may carry other keys (the schema does not
	// close them); each is read loosely.
	MatchConditions []json.RawMessage `json:"matchConditions"`
}

// admissionNamespaceRaw is `namespace`: a label selector only, no
// nameSelector.
type admissionNamespaceRaw struct {
	LabelSelector *metav1.LabelSelector `json:"labelSelector"`
}

type matchConditionRaw struct {
	Name       *string `json:"name"`
	Expression *string `json:"expression"`
}

// parseAdmission parses the list under key (kubernetesValidating or
// kubernetesMutating). A validating list also gets the checks the
// apiserver makes of a ValidatingWebhookConfiguration, as shell-operator
// makes them; a mutating one only the schema's.
func parseAdmission(key string, raw json.RawMessage) ([]bindings.AdmissionBinding, error) {
	list, err := parseBindings[bindings.AdmissionBinding, admissionRaw](key, raw, decodeStrict)
	if err != nil {
		return nil, err
	}
	if err := atLeastOne(key, len(list)); err != nil {
		return nil, err
	}
	if bindings.Type(key) == bindings.Validating {
		return list, checkValidating(key, list)
	}
	return list, nil
}

func atLeastOne(key string, n int) error {
	if n == 0 {
		return fieldErr(key, ErrBadValue, "want at least one binding, got none")
	}
	return nil
}

func (r admissionRaw) binding(field string) (bindings.AdmissionBinding, error) {
	b := bindings.AdmissionBinding{
		Name:           r.Name,
		Group:          r.Group,
		ObjectSelector: bindings.As[*bindings.LabelSelector](r.LabelSelector),
		FailurePolicy:  bindings.DefaultFailurePolicy,
		SideEffects:    bindings.DefaultSideEffects,
		TimeoutSeconds: bindings.DefaultTimeoutSeconds,
	}
	if r.TimeoutSeconds != nil {
		b.TimeoutSeconds = *r.TimeoutSeconds
	}
	steps := []func() error{
		func() error { return requiredName(field+".name", r.Name) },
		func() (err error) { b.IncludeSnapshotsFrom, err = snapshotRefs(field, r.IncludeSnapshotsFrom); return },
		func() error { return checkQueueName(field+".group", r.Group) },
		func() error { return webhookSelector(field+".labelSelector", r.LabelSelector) },
		func() error {
			ns, err := r.namespace(field + ".namespace")
			b.NamespaceSelector = bindings.As[*bindings.LabelSelector](ns)
			return err
		},
		func() error {
			rs, err := rules(field+".rules", r.Rules)
			b.Rules = bindings.As[[]bindings.Rule](rs)
			return err
		},
		func() (err error) {
			b.FailurePolicy, err = oneOf(field+".failurePolicy", r.FailurePolicy, b.FailurePolicy,
				admissionregistrationv1.Fail, admissionregistrationv1.Ignore)
			return
		},
		func() (err error) {
			b.SideEffects, err = oneOf(field+".sideEffects", r.SideEffects, b.SideEffects,
				admissionregistrationv1.SideEffectClassNone, admissionregistrationv1.SideEffectClassNoneOnDryRun)
			return
		},
		func() error {
			mc, err := matchConditions(field+".matchConditions", r.MatchConditions)
			b.MatchConditions = bindings.As[[]bindings.MatchCondition](mc)
			return err
		},
	}
	return checked(&b, steps...)
}

// requiredName refuses a missing or empty name.
func requiredName(field, name string) error {
	if name == "" {
		return fieldErr(field, ErrBadValue, "name is required")
	}
	return checkBindingName(field, name)
}

// snapshotRefs is includeSnapshotsFrom, which must not be an empty list
// when given (the names are checked once all bindings are read).
func snapshotRefs(field string, refs *[]string) ([]string, error) {
	if refs == nil {
		return nil, nil
	}
	if len(*refs) == 0 {
		return nil, fieldErr(field+".includeSnapshotsFrom", ErrBadValue, "want at least one binding name, got none")
	}
	return *refs, nil
}

// webhookSelector checks a label selector of a webhook: matchLabels or
// matchExpressions or both (the schema's 1–2 properties), valid as the
// apiserver reads it.
func webhookSelector(field string, ls *metav1.LabelSelector) error {
	if ls == nil {
		return nil
	}
	if ls.MatchLabels == nil && ls.MatchExpressions == nil {
		return fieldErr(field, ErrBadSelector, "want matchLabels or matchExpressions, got neither")
	}
	_, err := labelSelector(field, ls)
	return err
}

// namespace is `namespace.labelSelector`, which is required when
// `namespace` is given.
func (r admissionRaw) namespace(field string) (*metav1.LabelSelector, error) {
	if r.Namespace == nil {
		return nil, nil
	}
	if r.Namespace.LabelSelector == nil {
		return nil, fieldErr(field+".labelSelector", ErrBadValue, "labelSelector is required in namespace")
	}
	return r.Namespace.LabelSelector, webhookSelector(field+".labelSelector", r.Namespace.LabelSelector)
}

// oneOf reads an optional field that takes one of allowed values: unset,
// it is def.
func oneOf[T ~string](field string, p *string, def string, allowed ...T) (string, error) {
	switch {
	case p == nil:
		return def, nil
	case slices.Contains(allowed, T(*p)):
		return *p, nil
	}
	want := make([]string, len(allowed))
	for i, a := range allowed {
		want[i] = string(a)
	}
	return "", fieldErr(field, ErrBadValue, "%q: want %s", *p, strings.Join(want, " or "))
}

// matchConditions reads each condition loosely; name and expression are
// required. Their CEL is the apiserver's to check.
func matchConditions(field string, items []json.RawMessage) ([]admissionregistrationv1.MatchCondition, error) {
	if items == nil {
		return nil, nil
	}
	out := make([]admissionregistrationv1.MatchCondition, 0, len(items))
	for i, item := range items {
		itemField := fmt.Sprintf("%s[%d]", field, i)
		var c matchConditionRaw
		if err := decodeLoose(item, &c); err != nil {
			return nil, at(itemField, err)
		}
		if c.Name == nil {
			return nil, fieldErr(itemField+".name", ErrBadValue, "name is required")
		}
		if c.Expression == nil {
			return nil, fieldErr(itemField+".expression", ErrBadValue, "expression is required")
		}
		out = append(out, admissionregistrationv1.MatchCondition{Name: *c.Name, Expression: *c.Expression})
	}
	return out, nil
}
