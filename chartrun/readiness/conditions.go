package readiness

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// condition is the part of a status condition every kind shares.
type condition struct {
	Type    string `json:"type"`
	Status  string `json:"status"`
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
}

// conditions reads status.conditions of any kind; entries that do not decode are skipped,
// since a condition is only ever used to explain a status, never to decide one it cannot read.
func conditions(obj map[string]any) []condition {
	raw, _, _ := unstructured.NestedFieldNoCopy(obj, "status", "conditions")
	items, _ := raw.([]any)
	var out []condition
	for _, item := range items {
		m, ok := item.(map[string]any)
		if !ok {
			continue
		}
		var c condition
		if decode(m, &c) == nil {
			out = append(out, c)
		}
	}
	return out
}

// find returns the condition of a type with a status ("True", "False").
func find(conds []condition, typ, status string) (condition, bool) {
	for _, c := range conds {
		if c.Type == typ && c.Status == status {
			return c, true
		}
	}
	return condition{}, false
}

// String reads `condition Progressing=False ProgressDeadlineExceeded: message`.
func (c condition) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "condition %s=%s", c.Type, c.Status)
	if c.Reason != "" {
		b.WriteString(" " + c.Reason)
	}
	if c.Message != "" {
		b.WriteString(": " + c.Message)
	}
	return b.String()
}

// firstReason explains a status by the first of the (type, status) pairs that is present.
func firstReason(conds []condition, pairs ...[2]string) string {
	for _, p := range pairs {
		if c, ok := find(conds, p[0], p[1]); ok {
			return c.String()
		}
	}
	return ""
}
