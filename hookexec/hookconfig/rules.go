package hookconfig

import (
	"fmt"
	"slices"
	"strings"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"

	"github.com/addon-actors/addon-operator/hook/bindings"
)

// rules converts `rules`: when given, at least one rule, each with the
// four lists non-empty, operations and scope from their enums.
func rules(field string, list *[]bindings.Rule) ([]admissionregistrationv1.RuleWithOperations, error) {
	if list == nil {
		return nil, nil
	}
	if len(*list) == 0 {
		return nil, fieldErr(field, ErrBadValue, "want at least one rule, got none")
	}
	out := make([]admissionregistrationv1.RuleWithOperations, 0, len(*list))
	for i, r := range *list {
		converted, err := rule(fmt.Sprintf("%s[%d]", field, i), r)
		if err != nil {
			return nil, err
		}
		out = append(out, converted)
	}
	return out, nil
}

// rule converts one entry of `rules` (bindings.Rule is its JSON form).
func rule(field string, r bindings.Rule) (admissionregistrationv1.RuleWithOperations, error) {
	for _, l := range []struct {
		key  string
		list []string
	}{{"apiGroups", r.APIGroups}, {"apiVersions", r.APIVersions}, {"resources", r.Resources}, {"operations", r.Operations}} {
		if len(l.list) == 0 {
			return admissionregistrationv1.RuleWithOperations{}, fieldErr(field+"."+l.key, ErrBadValue, "%s is required, with at least one item", l.key)
		}
	}
	ops := make([]admissionregistrationv1.OperationType, 0, len(r.Operations))
	for i, op := range r.Operations {
		switch o := admissionregistrationv1.OperationType(op); o {
		case admissionregistrationv1.Create, admissionregistrationv1.Update, admissionregistrationv1.Delete,
			admissionregistrationv1.Connect, admissionregistrationv1.OperationAll:
			ops = append(ops, o)
		default:
			return admissionregistrationv1.RuleWithOperations{}, fieldErr(fmt.Sprintf("%s.operations[%d]", field, i), ErrBadValue,
				"%q: want CREATE, UPDATE, DELETE, CONNECT or *", op)
		}
	}
	rule := admissionregistrationv1.RuleWithOperations{Operations: ops, Rule: admissionregistrationv1.Rule{
		APIGroups: r.APIGroups, APIVersions: r.APIVersions, Resources: r.Resources}}
	if r.Scope != nil {
		switch s := admissionregistrationv1.ScopeType(*r.Scope); s {
		case admissionregistrationv1.ClusterScope, admissionregistrationv1.NamespacedScope, admissionregistrationv1.AllScopes:
			rule.Scope = &s
		default:
			return admissionregistrationv1.RuleWithOperations{}, fieldErr(field+".scope", ErrBadValue, "%q: want Cluster, Namespaced or *", *r.Scope)
		}
	}
	return rule, nil
}

// checkRule is the apiserver's validation of a webhook rule (which the
// schema leaves out): `*` stands alone among groups, versions and
// operations; no empty version; the resources' wildcards as
// checkResources says.
func checkRule(field string, r admissionregistrationv1.RuleWithOperations) error {
	if err := aloneWildcard(field+".apiGroups", r.APIGroups, "API groups"); err != nil {
		return err
	}
	if err := aloneWildcard(field+".apiVersions", r.APIVersions, "API versions"); err != nil {
		return err
	}
	for i, v := range r.APIVersions {
		if v == "" {
			return fieldErr(fmt.Sprintf("%s.apiVersions[%d]", field, i), ErrBadValue, "a version must not be empty")
		}
	}
	ops := make([]string, len(r.Operations))
	for i, op := range r.Operations {
		ops[i] = string(op)
	}
	if err := aloneWildcard(field+".operations", ops, "operations"); err != nil {
		return err
	}
	return checkResources(field+".resources", r.Resources)
}

func aloneWildcard(field string, list []string, what string) error {
	if len(list) > 1 && slices.Contains(list, "*") {
		return fieldErr(field, ErrBadValue, "if '*' is present, must not specify other %s", what)
	}
	return nil
}

// checkResources is the apiserver's check of a rule's resources: none
// empty; `*/*` alone; `*` not with a resource without subresource; and,
// in list order as the apiserver checks it, no `x/y` after `x/*` nor
// `y/x` after `*/x`. A hook the apiserver would take is taken.
func checkResources(field string, resources []string) error {
	wildSub, wildRes := map[string]bool{}, map[string]bool{} // x/*, */x
	single, plain := false, false
	for i, rs := range resources {
		itemField := fmt.Sprintf("%s[%d]", field, i)
		if rs == "" {
			return fieldErr(itemField, ErrBadValue, "a resource must not be empty")
		}
		res, sub, hasSub := strings.Cut(rs, "/")
		if !hasSub {
			single = single || rs == "*"
			// The apiserver keeps only the last such resource's answer:
			// [pods, "*"] passes and ["*", pods] does not. So does this.
			plain = rs != "*"
			continue
		}
		if wildSub[res] {
			return fieldErr(itemField, ErrBadValue, "if '%s/*' is present, must not specify %s", res, rs)
		}
		if wildRes[sub] {
			return fieldErr(itemField, ErrBadValue, "if '*/%s' is present, must not specify %s", sub, rs)
		}
		wildSub[res] = wildSub[res] || sub == "*"
		wildRes[sub] = wildRes[sub] || res == "*"
	}
	if len(resources) > 1 && slices.Contains(resources, "*/*") {
		return fieldErr(field, ErrBadValue, "if '*/*' is present, must not specify other resources")
	}
	if single && plain {
		return fieldErr(field, ErrBadValue, "if '*' is present, must not specify other resources without subresources")
	}
	return nil
}
