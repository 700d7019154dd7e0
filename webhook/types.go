package webhook

import (
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// GlobalOwner owns the webhook bindings of global hooks.
const GlobalOwner = "global"

// Kind says which admission configuration a binding belongs to.
type Kind string

// The admission kinds.
const (
	Validating Kind = "Validating"
	Mutating   Kind = "Mutating"
)

// DefaultTimeoutSeconds is shell-operator's timeoutSeconds when a binding
// sets none.
const DefaultTimeoutSeconds int32 = 10

// Admission is one kubernetesValidating or kubernetesMutating binding of a
// hook, as the hook's config declared it.
type Admission struct {
	Owner             string // GlobalOwner or a module name
	Hook              string
	Name              string // the binding name, also the webhook's name
	Kind              Kind
	Rules             []admissionregistrationv1.RuleWithOperations
	FailurePolicy     *admissionregistrationv1.FailurePolicyType
	SideEffects       *admissionregistrationv1.SideEffectClass
	TimeoutSeconds    int32 // 0: DefaultTimeoutSeconds
	ObjectSelector    *metav1.LabelSelector
	NamespaceSelector *metav1.LabelSelector
	MatchConditions   []admissionregistrationv1.MatchCondition
	Concurrency       int // runs of the hook at once; 0: the server's default
}

// Path is where the apiserver sends the binding's reviews.
func (a Admission) Path() string { return AdmissionPath(a.Owner, a.Name) }

// Timeout is the binding's timeoutSeconds with shell-operator's default.
func (a Admission) Timeout() int32 {
	if a.TimeoutSeconds <= 0 {
		return DefaultTimeoutSeconds
	}
	return a.TimeoutSeconds
}

// Ignores says whether the binding's failurePolicy is Ignore (the default
// is Fail).
func (a Admission) Ignores() bool {
	return a.FailurePolicy != nil && *a.FailurePolicy == admissionregistrationv1.Ignore
}

// ConversionRule is one fromVersion → toVersion a hook converts; a version
// is short ("v1") or full ("group/v1").
type ConversionRule struct {
	From, To string
}

// Conversion is one kubernetesCustomResourceConversion binding of a hook.
type Conversion struct {
	Owner       string
	Hook        string
	Name        string // the binding name
	CRDName     string // e.g. crontabs.stable.example.com
	Rules       []ConversionRule
	Concurrency int // 0: the server's default
}

// Path is where the apiserver sends the CRD's conversion reviews.
func (c Conversion) Path() string { return ConversionPath(c.CRDName) }
