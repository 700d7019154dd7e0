package forbidden

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
)

// Denial is one refusal: who may not do what, where.
type Denial struct {
	User     string
	Verb     string
	Group    string
	Resource string // with its subresource: "pods/exec"
	// Namespace is "" at the cluster scope.
	Namespace string
}

// apiserver's wording (k8s.io/apiserver's authorization message):
// `User "u" cannot create resource "deployments" in API group "apps" in the
// namespace "ns"` or `... at the cluster scope`.
var denialText = regexp.MustCompile(`(?:User "([^"]*)" )?cannot (\S+) resource "([^"]+)" in API group "([^"]*)"(?: in the namespace "([^"]*)"| at the cluster scope)?`)

// Parse finds a refusal in a message (a StatusError's, or helm's text that
// wraps one); ok is false when there is none.
func Parse(message string) (Denial, bool) {
	m := denialText.FindStringSubmatch(message)
	if m == nil {
		return Denial{}, false
	}
	return Denial{User: m[1], Verb: m[2], Resource: m[3], Group: m[4], Namespace: m[5]}, true
}

// All are the refusals in a message, in order (a joined error may carry
// several), each once.
func All(message string) []Denial {
	var out []Denial
	seen := map[Denial]bool{}
	for _, m := range denialText.FindAllStringSubmatch(message, -1) {
		d := Denial{User: m[1], Verb: m[2], Resource: m[3], Group: m[4], Namespace: m[5]}
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	return out
}

// Find is Parse of an error's text, for any error that is or wraps a
// 403 or carries its message.
func Find(err error) (Denial, bool) {
	if err == nil {
		return Denial{}, false
	}
	var status *apierrors.StatusError
	if errors.As(err, &status) && apierrors.IsForbidden(status) {
		if d, ok := Parse(status.ErrStatus.Message); ok {
			return d, true
		}
	}
	return Parse(err.Error())
}

// GroupResource is "group/resource", "resource" for the core group.
func (d Denial) GroupResource() string {
	if d.Group == "" {
		return d.Resource
	}
	return d.Group + "/" + d.Resource
}

// Rule is the rule that allows it, as an inline rbac/v1 PolicyRule.
func (d Denial) Rule() string {
	return fmt.Sprintf("{apiGroups: [%s], resources: [%s], verbs: [%s]}",
		strconv.Quote(d.Group), strconv.Quote(d.Resource), strconv.Quote(d.Verb))
}

// Where says where the rule goes: a Role in the namespace, or the
// ClusterRole.
func (d Denial) Where() string {
	if d.Namespace == "" {
		return "the ClusterRole"
	}
	return "a Role in namespace " + d.Namespace + " (or the ClusterRole)"
}

// String is the sentence an error or a log gives.
func (d Denial) String() string {
	scope := "at the cluster scope"
	if d.Namespace != "" {
		scope = "in namespace " + d.Namespace
	}
	return fmt.Sprintf("forbidden: %s %s %s; add the rule %s to %s (addon-operator rbac computes it)",
		d.Verb, d.GroupResource(), scope, d.Rule(), d.Where())
}

// Error is a refusal with the error it was read from.
type Error struct {
	Denial Denial
	Err    error
}

func (e *Error) Error() string {
	msg := e.Err.Error()
	if strings.Contains(msg, "; add the rule ") {
		return msg // explained already (a wrapped Error)
	}
	return e.Denial.String() + ": " + msg
}

func (e *Error) Unwrap() error { return e.Err }

// Explain returns err with the refusal it carries put first (Error), or
// err as it is when it carries none.
func Explain(err error) error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	d, ok := Find(err)
	if !ok {
		return err
	}
	return &Error{Denial: d, Err: err}
}
