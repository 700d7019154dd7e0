package rbacgen

import "slices"

// Missing returns the grants of needed that granted does not allow, as
// merged rules: what to add. A ClusterRole's rules allow in every
// namespace; a Role's only in its own. "*" in a rule's groups, resources or
// verbs allows any.
func Missing(needed Set, granted Rules) Rules {
	var out Set
	for _, g := range needed.Grants() {
		if !granted.Allows(g) {
			out.Add(g.Namespace, g.Group, g.Resource, []string{g.Verb}, nameList(g.Name)...)
		}
	}
	return out.Merge()
}

// Allows tells whether the rules allow the grant.
func (r Rules) Allows(g Grant) bool {
	if anyAllows(r.Cluster, g) {
		return true
	}
	return g.Namespace != "" && anyAllows(r.Namespaced[g.Namespace], g)
}

func anyAllows(rules []Rule, g Grant) bool {
	return slices.ContainsFunc(rules, func(r Rule) bool { return r.allows(g) })
}

func (r Rule) allows(g Grant) bool {
	if !matches(r.APIGroups, g.Group) || !matches(r.Resources, g.Resource) || !matches(r.Verbs, g.Verb) {
		return false
	}
	if len(r.ResourceNames) == 0 {
		return true
	}
	return g.Name != "" && slices.Contains(r.ResourceNames, g.Name)
}

func matches(list []string, v string) bool {
	return slices.Contains(list, "*") || slices.Contains(list, v)
}
