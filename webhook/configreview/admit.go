package configreview

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	admissionv1 "k8s.io/api/admission/v1"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"

	"github.com/addon-actors/addon-operator/moduleconfig"
	"github.com/addon-actors/addon-operator/webhook"
)

// The binding's names: Owner is the dispatcher's owner and the suffix of
// the configuration's name (<prefix>-moduleconfigs); Hook the name its
// slots are kept under; Name the webhook's name kubectl prints.
const (
	Owner = "moduleconfigs"
	Hook  = "moduleconfig-review"
	Name  = moduleconfig.CRDName
)

// TimeoutSeconds is the binding's timeoutSeconds: a review takes
// milliseconds; past this the apiserver applies the failure policy.
const TimeoutSeconds int32 = 5

// Binding is the ModuleConfig webhook as webhook/register writes it and
// the dispatcher serves it: CREATE and UPDATE of moduleconfigs, with
// failurePolicy policy ("Ignore" or "Fail").
func Binding(policy admissionregistrationv1.FailurePolicyType) webhook.Admission {
	none := admissionregistrationv1.SideEffectClassNone
	scope := admissionregistrationv1.ClusterScope
	return webhook.Admission{Owner: Owner, Hook: Hook, Name: Name, Kind: webhook.Validating,
		FailurePolicy: &policy, SideEffects: &none, TimeoutSeconds: TimeoutSeconds,
		Rules: []admissionregistrationv1.RuleWithOperations{{
			Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create, admissionregistrationv1.Update},
			Rule: admissionregistrationv1.Rule{APIGroups: []string{moduleconfig.Group}, APIVersions: []string{moduleconfig.Version},
				Resources: []string{moduleconfig.Resource}, Scope: &scope},
		}}}
}

// ErrNoConversion: the runner converts nothing.
var ErrNoConversion = errors.New("the ModuleConfig webhook converts nothing")

// Runner answers the dispatcher's reviews with Review (server.Runner):
// Catalog is read at each review, so a catalog replaced after the modules
// dirs were read again applies to the next review.
type Runner struct {
	Catalog func() *Catalog
}

// Admit implements server.Runner: the verdict as a hook's response file.
func (r Runner) Admit(_ context.Context, _ webhook.Admission, request json.RawMessage) ([]byte, error) {
	var req admissionv1.AdmissionRequest
	if err := json.Unmarshal(request, &req); err != nil {
		return Verdict{Message: fmt.Sprintf("ModuleConfig review: request: %v", err)}.File(), nil
	}
	return Review(&req, r.Catalog()).File(), nil
}

// Convert implements server.Runner; it is never called (no conversion is
// set on the dispatcher).
func (Runner) Convert(context.Context, webhook.Conversion, string, string, json.RawMessage) ([]byte, error) {
	return nil, ErrNoConversion
}
