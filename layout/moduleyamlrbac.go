package layout

import (
	"fmt"
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// PolicyRule is one entry of module.yaml's `rbac` list: what the module's
// hooks do in the cluster that cannot be read from their configuration (the
// kinds they touch through object patches or kubectl). Its shape is
// Kubernetes' own rbac/v1 PolicyRule, plus Namespaces: empty grants the rule
// cluster-wide (a ClusterRole), else in a Role of each namespace.
type PolicyRule struct {
	APIGroups     []string
	Resources     []string
	Verbs         []string
	ResourceNames []string
	Namespaces    []string
}

// KnownVerbs are the verbs an `rbac` rule may name: the apiserver's, and
// "*" for all of them.
var KnownVerbs = []string{"get", "list", "watch", "create", "update", "patch", "delete", "deletecollection",
	"impersonate", "bind", "escalate", "use", "approve", "sign", "*"}

// rbacRules reads module.yaml's `rbac` list:
//
//	rbac:
//	  - apiGroups: [""]
//	    resources: [configmaps]
//	    verbs: [get, patch]
//	    namespaces: [kube-system]   # optional; without it, cluster-wide
//
// An unknown key, a rule without resources or verbs and an unknown verb
// are errors naming the file, the key and the line.
func (p yamlReader) rbacRules(n *yaml.Node) ([]PolicyRule, error) {
	n = resolveAlias(n)
	if isNull(n) {
		return nil, nil
	}
	if n.Kind != yaml.SequenceNode {
		return nil, p.errorf("rbac", n, "want a list of rules, got %s", describeNode(n))
	}
	out := make([]PolicyRule, 0, len(n.Content))
	for i, item := range n.Content {
		rule, err := p.rbacRule(fmt.Sprintf("rbac[%d]", i), item)
		if err != nil {
			return nil, err
		}
		out = append(out, rule)
	}
	return out, nil
}

func (p yamlReader) rbacRule(key string, n *yaml.Node) (PolicyRule, error) {
	var r PolicyRule
	err := p.eachEntry(key, n, func(e yamlEntry, at string) (err error) {
		switch e.key {
		case "apiGroups":
			r.APIGroups, err = p.strings(at, e.value, false)
		case "resources":
			r.Resources, err = p.strings(at, e.value, true)
		case "verbs":
			if r.Verbs, err = p.strings(at, e.value, true); err == nil {
				err = p.verbs(at, e.value, r.Verbs)
			}
		case "resourceNames":
			r.ResourceNames, err = p.strings(at, e.value, true)
		case "namespaces":
			r.Namespaces, err = p.strings(at, e.value, true)
		default:
			err = p.errorf(at, e.value, "unknown key; want apiGroups, resources, verbs, resourceNames or namespaces")
		}
		return err
	})
	if err != nil {
		return PolicyRule{}, err
	}
	switch {
	case len(r.Verbs) == 0:
		return PolicyRule{}, p.errorf(key+".verbs", n, "a rule needs at least one verb")
	case len(r.Resources) == 0:
		return PolicyRule{}, p.errorf(key+".resources", n, "a rule needs at least one resource")
	case r.APIGroups == nil:
		return PolicyRule{}, p.errorf(key+".apiGroups", n, `a rule needs its API groups ("" is the core group)`)
	}
	return r, nil
}

// strings reads a list of strings; nonEmpty refuses "" in it (only an API
// group may be empty: the core group).
func (p yamlReader) strings(key string, n *yaml.Node, nonEmpty bool) ([]string, error) {
	n = resolveAlias(n)
	if n.Kind != yaml.SequenceNode {
		return nil, p.errorf(key, n, "want a list of strings, got %s", describeNode(n))
	}
	out := make([]string, 0, len(n.Content))
	for i, item := range n.Content {
		at := fmt.Sprintf("%s[%d]", key, i)
		item = resolveAlias(item)
		if item.Kind != yaml.ScalarNode || isNull(item) && nonEmpty {
			return nil, p.errorf(at, item, "want a string, got %s", describeNode(item))
		}
		if nonEmpty && strings.TrimSpace(item.Value) == "" {
			return nil, p.errorf(at, item, "want a name, got an empty string")
		}
		out = append(out, item.Value)
	}
	return out, nil
}

func (p yamlReader) verbs(key string, n *yaml.Node, verbs []string) error {
	for i, v := range verbs {
		if !slices.Contains(KnownVerbs, v) {
			return p.errorf(fmt.Sprintf("%s[%d]", key, i), resolveAlias(n).Content[i],
				"unknown verb %q; want one of %s", v, strings.Join(KnownVerbs, ", "))
		}
	}
	return nil
}
