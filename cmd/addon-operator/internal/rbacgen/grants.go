package rbacgen

import (
	"slices"
	"sort"
	"strings"
)

// Grant is one permission: a verb on a resource (of a group), in a namespace
// ("" is every namespace, or a cluster-scoped resource), on one object
// (Name) or on all of them ("").
type Grant struct {
	Namespace string
	Group     string
	Resource  string
	Name      string
	Verb      string
}

// Set is a set of grants; the zero value is empty and ready to use.
type Set struct{ grants map[Grant]bool }

// Add adds a verb for each verb on the resource in ns, on the named objects
// (all objects without names).
func (s *Set) Add(ns, group, resource string, verbs []string, names ...string) {
	if s.grants == nil {
		s.grants = map[Grant]bool{}
	}
	if len(names) == 0 {
		names = []string{""}
	}
	for _, v := range verbs {
		for _, n := range names {
			s.grants[Grant{Namespace: ns, Group: group, Resource: resource, Name: n, Verb: v}] = true
		}
	}
}

// AddSet adds every grant of o.
func (s *Set) AddSet(o Set) {
	for g := range o.grants {
		s.Add(g.Namespace, g.Group, g.Resource, []string{g.Verb}, nameList(g.Name)...)
	}
}

func nameList(n string) []string {
	if n == "" {
		return nil
	}
	return []string{n}
}

// Len is the number of grants.
func (s Set) Len() int { return len(s.grants) }

// Grants returns the grants sorted.
func (s Set) Grants() []Grant {
	out := make([]Grant, 0, len(s.grants))
	for g := range s.grants {
		out = append(out, g)
	}
	sort.Slice(out, func(i, j int) bool { return grantLess(out[i], out[j]) })
	return out
}

func grantLess(a, b Grant) bool {
	ka := []string{a.Namespace, a.Group, a.Resource, a.Name, a.Verb}
	kb := []string{b.Namespace, b.Group, b.Resource, b.Name, b.Verb}
	return slices.Compare(ka, kb) < 0
}

// Rule is an rbac/v1 PolicyRule (resource rules only), in the order and
// field names the apiserver uses.
type Rule struct {
	APIGroups     []string `json:"apiGroups"`
	Resources     []string `json:"resources"`
	ResourceNames []string `json:"resourceNames,omitempty"`
	Verbs         []string `json:"verbs"`
}

// Rules are merged rules: Cluster for a ClusterRole, Namespaced for a Role
// in each namespace.
type Rules struct {
	Cluster    []Rule            `json:"cluster,omitempty"`
	Namespaced map[string][]Rule `json:"namespaced,omitempty"`
}

// Empty tells whether there is no rule at all.
func (r Rules) Empty() bool { return len(r.Cluster) == 0 && len(r.Namespaced) == 0 }

// Merge turns the set into rules: a namespaced grant that a cluster-wide one
// covers is dropped, and the grants of a scope are merged into as few rules
// as keep them exact (resources with the same group, verbs and names share
// a rule), sorted.
func (s Set) Merge() Rules {
	byScope := map[string][]Grant{}
	for _, g := range s.Grants() {
		if g.Namespace != "" && s.coveredClusterWide(g) {
			continue
		}
		byScope[g.Namespace] = append(byScope[g.Namespace], g)
	}
	out := Rules{}
	for ns, grants := range byScope {
		rules := mergeScope(grants)
		if ns == "" {
			out.Cluster = rules
			continue
		}
		if out.Namespaced == nil {
			out.Namespaced = map[string][]Rule{}
		}
		out.Namespaced[ns] = rules
	}
	return out
}

func (s Set) coveredClusterWide(g Grant) bool {
	c := g
	c.Namespace = ""
	if s.grants[c] {
		return true
	}
	c.Name = ""
	return s.grants[c]
}

// mergeScope merges the grants of one scope. A grant on all objects makes
// the same verb on named ones redundant.
func mergeScope(grants []Grant) []Rule {
	type target struct{ group, resource, name string }
	verbs := map[target][]string{}
	all := map[Grant]bool{}
	for _, g := range grants {
		if g.Name == "" {
			all[g] = true
		}
	}
	for _, g := range grants {
		if g.Name != "" && all[Grant{Namespace: g.Namespace, Group: g.Group, Resource: g.Resource, Verb: g.Verb}] {
			continue
		}
		t := target{g.Group, g.Resource, g.Name}
		verbs[t] = append(verbs[t], g.Verb)
	}
	// resources of one group with the same verbs and names share a rule
	type ruleKey struct{ group, verbs, names string }
	names := map[[3]string][]string{} // group, resource, verbs -> names
	for t, v := range verbs {
		k := [3]string{t.group, t.resource, strings.Join(sortedUnique(v), ",")}
		names[k] = append(names[k], t.name)
	}
	resources := map[ruleKey][]string{}
	for k, n := range names {
		rk := ruleKey{group: k[0], verbs: k[2], names: strings.Join(sortedUnique(n), ",")}
		resources[rk] = append(resources[rk], k[1])
	}
	out := make([]Rule, 0, len(resources))
	for k, res := range resources {
		r := Rule{APIGroups: []string{k.group}, Resources: sortedUnique(res), Verbs: strings.Split(k.verbs, ",")}
		if k.names != "" {
			r.ResourceNames = strings.Split(k.names, ",")
		}
		out = append(out, r)
	}
	sortRules(out)
	return out
}

func sortRules(rules []Rule) {
	key := func(r Rule) string {
		return strings.Join(r.APIGroups, ",") + "\x00" + strings.Join(r.Resources, ",") + "\x00" +
			strings.Join(r.ResourceNames, ",") + "\x00" + strings.Join(r.Verbs, ",")
	}
	sort.Slice(rules, func(i, j int) bool { return key(rules[i]) < key(rules[j]) })
}

func sortedUnique(in []string) []string {
	out := slices.Clone(in)
	sort.Strings(out)
	return slices.Compact(out)
}
