package hookconfig

import (
	"fmt"
	"strings"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/addon-actors/addon-operator/hook/bindings"
)

// The apiserver's bounds of a webhook's timeoutSeconds.
const (
	minTimeoutSeconds = 1
	maxTimeoutSeconds = 30
)

// checkValidating makes the checks the apiserver makes of a
// ValidatingWebhookConfiguration, over the hook's validating bindings as
// shell-operator makes them: fully-qualified names, unique in the hook;
// timeoutSeconds from 1 to 30; rules as checkRule says. (Selectors were
// checked when each binding was read.)
func checkValidating(key string, list []bindings.AdmissionBinding) error {
	seen := map[string]string{}
	for i, b := range list {
		field := fmt.Sprintf("%s[%d]", key, i)
		if err := fullyQualified(field+".name", b.Name); err != nil {
			return err
		}
		if first, dup := seen[b.Name]; dup {
			return fieldErr(field+".name", ErrDuplicateName, "%q is already the name of %s", b.Name, first)
		}
		seen[b.Name] = field
		if b.TimeoutSeconds < minTimeoutSeconds || b.TimeoutSeconds > maxTimeoutSeconds {
			return fieldErr(field+".timeoutSeconds", ErrBadValue, "%d: want %d to %d seconds",
				b.TimeoutSeconds, minTimeoutSeconds, maxTimeoutSeconds)
		}
		for j, r := range b.Rules {
			if err := checkRule(fmt.Sprintf("%s.rules[%d]", field, j), bindings.As[admissionregistrationv1.RuleWithOperations](r)); err != nil {
				return err
			}
		}
	}
	return nil
}

// fullyQualified wants a DNS subdomain of at least three segments, such as
// policy.example.com: the apiserver's rule for a webhook's name.
func fullyQualified(field, name string) error {
	if errs := validation.IsDNS1123Subdomain(name); len(errs) > 0 {
		return fieldErr(field, ErrBadName, "%q: %s", name, strings.Join(errs, "; "))
	}
	if len(strings.Split(name, ".")) < 3 {
		return fieldErr(field, ErrBadName, "%q: want a fully-qualified name with at least three segments separated by dots, such as policy.example.com", name)
	}
	return nil
}
