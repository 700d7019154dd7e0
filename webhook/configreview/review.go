package configreview

import (
	"encoding/json"
	"fmt"
	"strings"

	admissionv1 "k8s.io/api/admission/v1"

	"github.com/addon-actors/addon-operator/moduleconfig"
)

// Verdict is a review's answer, in the shape of a validating hook's
// response file (webhook.AdmissionResponse reads it): denied with Message,
// Warnings for kubectl either way.
type Verdict struct {
	Allowed  bool     `json:"allowed"`
	Message  string   `json:"message,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
}

// Review decides on one AdmissionRequest of a ModuleConfig: a CREATE or
// UPDATE whose object does not decode, or whose settings moduleconfig.Validate
// refuses, is denied with the error (naming the object and the field);
// anything else is allowed with Validate's warnings and, for an object
// that disables a module, the modules that require it. Other operations
// are allowed as they are (the webhook is registered for CREATE and
// UPDATE only).
func Review(req *admissionv1.AdmissionRequest, catalog *Catalog) Verdict {
	if req.Operation != admissionv1.Create && req.Operation != admissionv1.Update {
		return Verdict{Allowed: true}
	}
	mc, err := moduleconfig.Decode(req.Object.Raw)
	if err != nil {
		return Verdict{Message: err.Error()}
	}
	r := moduleconfig.Validate(mc, catalog.target(mc.Metadata.Name))
	warnings := append(r.Warnings, catalog.disabling(mc)...)
	if r.Err != nil {
		return Verdict{Message: r.Err.Error(), Warnings: warnings}
	}
	return Verdict{Allowed: true, Warnings: warnings}
}

// disabling warns of an object that disables a module other modules
// require: their requirement is then unmet, which disables them too.
func (c *Catalog) disabling(mc moduleconfig.ModuleConfig) []string {
	if mc.IsGlobal() || mc.Spec.Enabled == nil || *mc.Spec.Enabled {
		return nil
	}
	by := c.requiredBy[mc.Metadata.Name]
	if len(by) == 0 {
		return nil
	}
	return []string{fmt.Sprintf("ModuleConfig %q: spec.enabled=false disables a module that %s require (module.yaml requirements.modules): "+
		"they will be disabled too, their requirement unmet", mc.Metadata.Name, strings.Join(by, ", "))}
}

// File is the verdict as a validating hook's response file.
func (v Verdict) File() []byte {
	out, err := json.Marshal(v)
	if err != nil { // strings and a bool always marshal
		panic(fmt.Sprintf("configreview: marshal verdict: %v", err))
	}
	return out
}
