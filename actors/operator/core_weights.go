package operator

import (
	"slices"

	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/messages"
)

// weight is a module's place among the weight groups (UPSTREAM §5): its
// dir's numeric prefix; unnumbered modules share one weight after the
// numbered ones.
type weight struct {
	unnumbered bool
	order      int
}

func weightOf(def layout.Definition) weight {
	return weight{unnumbered: !def.Names.Ordered, order: def.Names.Order}
}

// byRequirements tells whether an enabled module declares requirements:
// then a converge's runs go through one run graph, even one by one, so
// that a failing module holds only what waits for it.
func byRequirements(enabled []string, defs map[string]layout.Definition) bool {
	return slices.ContainsFunc(enabled, func(m string) bool { return defs[m].Requirements.OrdersByRequirements() })
}

// runTasks are the module runs of a converge for the enabled modules (in
// run order): plain runs in main one by one; with parallel > 1 the weight
// groups in order, each a ParallelModuleRun, or a plain run in main for a
// weight of one module (UPSTREAM §4: the original runs such a module in
// main, and its hooks' metrics and `queue list` say so); or, when an
// enabled module declares requirements, one ParallelModuleRun that runs
// them all as a graph (runDeps).
func runTasks(enabled []string, defs []layout.Definition, parallel int) []messages.Task {
	byName := definitions(defs)
	if len(enabled) == 0 {
		return nil
	}
	if byRequirements(enabled, byName) {
		return []messages.Task{groupTask(enabled)}
	}
	var out []messages.Task
	for i := 0; i < len(enabled); {
		j := i + 1
		for parallel > 1 && j < len(enabled) && weightOf(byName[enabled[j]]) == weightOf(byName[enabled[i]]) {
			j++
		}
		if j-i == 1 {
			out = append(out, messages.NewModuleRun(enabled[i], "converge"))
		} else {
			out = append(out, groupTask(enabled[i:j]))
		}
		i = j
	}
	return out
}

// groupTask is the ParallelModuleRun of modules (in run order).
func groupTask(modules []string) messages.Task {
	return messages.Task{Kind: messages.TaskParallelModuleRun, Owner: messages.OwnerOperator,
		Modules: slices.Clone(modules), Reason: "converge"}
}

func definitions(defs []layout.Definition) map[string]layout.Definition {
	out := make(map[string]layout.Definition, len(defs))
	for _, d := range defs {
		out[d.Names.Name] = d
	}
	return out
}

// runDeps says what each module of a run graph waits for: a module that
// declares requirements waits for the required modules that run in this
// converge (optional ones included); any other module waits for the
// modules of the nearest lower weight among those without requirements
// (the spec's weight order, one group after another).
func runDeps(modules []string, defs map[string]layout.Definition) map[string][]string {
	deps := map[string][]string{}
	in := map[string]bool{}
	for _, m := range modules {
		in[m] = true
	}
	var prev, cur []string
	var curWeight weight
	for _, m := range modules {
		def := defs[m]
		if def.Requirements.OrdersByRequirements() {
			for _, r := range def.Requirements.Modules {
				if in[r.Module] && r.Module != m {
					deps[m] = append(deps[m], r.Module)
				}
			}
			continue
		}
		if w := weightOf(def); len(cur) == 0 || w != curWeight {
			if len(cur) > 0 {
				prev = cur
			}
			cur, curWeight = nil, w
		}
		cur = append(cur, m)
		deps[m] = slices.Clone(prev)
	}
	return deps
}
