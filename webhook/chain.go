package webhook

import "strings"

// Step is one hook run of a conversion chain: binding Binding converts its
// objects From → To (the rule's versions as the hook declared them).
type Step struct {
	Binding Conversion
	From    string
	To      string
}

// Chain finds the shortest sequence of steps, over the rules of all
// bindings of one CRD, that converts objects of apiVersion from to
// apiVersion desired. An empty chain with ok means from already is
// desired; ok is false when no rules lead there. Versions match as
// SameVersion says; a rule is used at most once, so loops are ignored.
func Chain(bindings []Conversion, from, desired string) (steps []Step, ok bool) {
	if SameVersion(from, desired) {
		return nil, true
	}
	edges := allSteps(bindings)
	type node struct {
		version string
		path    []int
	}
	used := make([]bool, len(edges))
	queue := []node{{version: from}}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		for i, e := range edges {
			if used[i] || !SameVersion(e.From, cur.version) {
				continue
			}
			used[i] = true
			path := append(append([]int(nil), cur.path...), i)
			if SameVersion(e.To, desired) {
				return pick(edges, path), true
			}
			queue = append(queue, node{version: e.To, path: path})
		}
	}
	return nil, false
}

// allSteps lists every rule of every binding as a step, in declaration
// order, so that ties between equally short chains break the same way.
func allSteps(bindings []Conversion) []Step {
	var steps []Step
	for _, b := range bindings {
		for _, r := range b.Rules {
			steps = append(steps, Step{Binding: b, From: r.From, To: r.To})
		}
	}
	return steps
}

func pick(edges []Step, path []int) []Step {
	steps := make([]Step, len(path))
	for i, e := range path {
		steps[i] = edges[e]
	}
	return steps
}

// SameVersion says whether two apiVersions name the same version: a short
// one ("v1") matches any group's version of that name, two full ones
// ("g/v1") match only within the same group.
func SameVersion(a, b string) bool {
	ga, va := splitVersion(a)
	gb, vb := splitVersion(b)
	if va != vb {
		return false
	}
	return ga == "" || gb == "" || ga == gb
}

func splitVersion(apiVersion string) (group, version string) {
	if i := strings.LastIndex(apiVersion, "/"); i >= 0 {
		return apiVersion[:i], apiVersion[i+1:]
	}
	return "", apiVersion
}
