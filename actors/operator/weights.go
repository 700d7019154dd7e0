package operator

import (
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

// runTasks are the module runs of a converge for the enabled modules (in
// module order). With parallel > 1 the runs of modules of one weight are
// one ParallelModuleRun each; a weight with one module keeps its plain
// run in main.
func runTasks(enabled []string, defs []layout.Definition, parallel int) []messages.Task {
	weights := map[string]weight{}
	for _, def := range defs {
		weights[def.Names.Name] = weightOf(def)
	}
	var out []messages.Task
	for i := 0; i < len(enabled); {
		j := i + 1
		for parallel > 1 && j < len(enabled) && weights[enabled[j]] == weights[enabled[i]] {
			j++
		}
		out = append(out, groupTask(enabled[i:j]))
		i = j
	}
	return out
}

func groupTask(modules []string) messages.Task {
	if len(modules) == 1 {
		return messages.NewModuleRun(modules[0], "converge")
	}
	return messages.Task{Kind: messages.TaskParallelModuleRun, Owner: messages.OwnerOperator,
		Modules: append([]string(nil), modules...), Reason: "converge"}
}
