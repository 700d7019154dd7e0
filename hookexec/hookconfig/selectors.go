package hookconfig

import (
	"fmt"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
)

type nameSelectorRaw struct {
	MatchNames []string `json:"matchNames"`
}

type fieldSelectorRaw struct {
	MatchExpressions []fieldExpressionRaw `json:"matchExpressions"`
}

type fieldExpressionRaw struct {
	Field    string `json:"field"`
	Operator string `json:"operator"`
	Value    string `json:"value"`
}

// labelSelector converts a Kubernetes label selector to the text form
// labels.Parse reads (the binding model keeps text); nil or empty is
// everything ("").
func labelSelector(field string, ls *metav1.LabelSelector) (string, error) {
	if ls == nil {
		return "", nil
	}
	sel, err := metav1.LabelSelectorAsSelector(ls)
	if err != nil {
		return "", fieldErr(field, ErrBadSelector, "%v", err)
	}
	text := sel.String()
	if _, err := labels.Parse(text); err != nil {
		return "", fieldErr(field, ErrBadSelector, "%q does not read back: %v", text, err)
	}
	return text, nil
}

// matchNames checks a list of object or namespace names.
func matchNames(field string, ns *nameSelectorRaw) ([]string, error) {
	if ns == nil {
		return nil, nil
	}
	for i, n := range ns.MatchNames {
		if strings.TrimSpace(n) == "" || strings.ContainsAny(n, " \t\n,") {
			return nil, fieldErr(fmt.Sprintf("%s.matchNames[%d]", field, i), ErrBadSelector, "%q is not an object name", n)
		}
	}
	return ns.MatchNames, nil
}

// fieldSelector turns matchExpressions into a field selector string such as
// `metadata.name=foo,status.phase!=Running`, checked by apimachinery.
func fieldSelector(field string, fs *fieldSelectorRaw) (string, error) {
	if fs == nil {
		return "", nil
	}
	parts := make([]string, 0, len(fs.MatchExpressions))
	for i, e := range fs.MatchExpressions {
		exprField := fmt.Sprintf("%s.matchExpressions[%d]", field, i)
		var op string
		switch e.Operator {
		case "=", "==", "Equals":
			op = "="
		case "!=", "NotEquals":
			op = "!="
		default:
			return "", fieldErr(exprField+".operator", ErrBadSelector, "%q: want =, ==, Equals, != or NotEquals", e.Operator)
		}
		if e.Field == "" {
			return "", fieldErr(exprField+".field", ErrBadSelector, "field is empty")
		}
		parts = append(parts, e.Field+op+fields.EscapeValue(e.Value))
	}
	selector := strings.Join(parts, ",")
	if _, err := fields.ParseSelector(selector); err != nil {
		return "", fieldErr(field, ErrBadSelector, "%v", err)
	}
	return selector, nil
}

// nameAndFieldSelector refuses a `metadata.name` field expression together
// with nameSelector.matchNames, as shell-operator does: both would select
// objects by name.
func nameAndFieldSelector(field string, names *nameSelectorRaw, fs *fieldSelectorRaw) error {
	if names == nil || len(names.MatchNames) == 0 || fs == nil {
		return nil
	}
	for i, e := range fs.MatchExpressions {
		if e.Field == "metadata.name" {
			return fieldErr(fmt.Sprintf("%s.fieldSelector.matchExpressions[%d].field", field, i), ErrBadSelector,
				"metadata.name cannot be used together with nameSelector.matchNames; use one of them")
		}
	}
	return nil
}
