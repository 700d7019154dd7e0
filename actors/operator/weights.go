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

// byGraph tells whether a converge's runs go through the run graph: with
// parallel runs, or when an enabled module declares requirements (then a
// failing module holds only what waits for it, even one by one).
func byGraph(enabled []string, defs map[string]layout.Definition, parallel int) bool {
	if parallel > 1 {
		return true
	}
	return slices.ContainsFunc(enabled, func(m string) bool { return defs[m].Requirements.OrdersByRequirements() })
}

// runTasks are the module runs of a converge for the enabled modules (in
// run order): plain runs in main one by one, or one ParallelModuleRun
// that runs them as a graph (runDeps).
func runTasks(enabled []string, defs []layout.Definition, parallel int) []messages.Task {
	byName := definitions(defs)
	if len(enabled) == 0 {
		return nil
	}
	if !byGraph(enabled, byName, parallel) {
		out := make([]messages.Task, 0, len(enabled))
		for _, m := range enabled {
			out = append(out, messages.NewModuleRun(m, "converge"))
		}
		return out
	}
	return []messages.Task{{Kind: messages.TaskParallelModuleRun, Owner: messages.OwnerOperator,
		Modules: slices.Clone(enabled), Reason: "converge"}}
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
