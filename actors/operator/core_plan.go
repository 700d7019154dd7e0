package operator

import (
	"slices"

	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/values"
)

// convergeInput is what the end of discovery decides from.
type convergeInput struct {
	modules    []layout.Definition // in module order
	discovered *discovery
	config     values.Sections
	wasEnabled map[string]bool // enabled by the previous discovery
	skipped    func(name string) bool
	releases   ReleasesListed
	unloaded   []string // module dirs there but not loadable
	ignore     string   // HELM_IGNORE_RELEASE
	parallel   int      // ADDON_OPERATOR_PARALLEL_MODULE_RUNS: > 1 groups runs by weight
}

// convergePlan is what a converge does after discovery.
type convergePlan struct {
	// tasks: a run per enabled module (in discovery order; with parallel >
	// 1 a ParallelModuleRun per weight of two or more), a delete per
	// disabled module that was enabled or has a release, a purge per owned
	// release without a module dir.
	tasks []messages.Task
	// disabled are the module actors to tell that they are disabled.
	disabled []string
	// kept are owned releases without a loaded module whose dir is there:
	// never purged.
	kept []string
	// enabled is the new enabled set.
	enabled map[string]bool
}

// planConverge decides the module runs, deletes and purges of a converge;
// it has no effects (the operator carries the plan out).
func planConverge(in convergeInput) convergePlan {
	p := convergePlan{enabled: map[string]bool{}}
	var deletes []messages.Task
	for _, name := range in.discovered.enabled {
		p.enabled[name] = true
	}
	p.tasks = runTasks(in.discovered.enabled, in.modules, in.parallel)
	modules := map[string]bool{}
	for _, def := range in.modules {
		name := def.Names.Name
		modules[name] = true
		if p.enabled[name] || in.skipped(name) {
			continue
		}
		if in.wasEnabled[name] || slices.Contains(in.releases.All, name) {
			cause, reason := disabledBy(def, in.config, in.discovered.dynamic, in.discovered.byScript[name])
			if unmet := in.discovered.unmet[name]; len(unmet) > 0 {
				cause, reason = CauseRequirements, unmetText(unmet)
			}
			deletes = append(deletes, messages.Task{Kind: messages.TaskModuleDelete,
				Owner: messages.ModuleOwner(name), Module: name, Reason: reason, Cause: cause})
		}
		p.disabled = append(p.disabled, name)
	}
	p.tasks = append(p.tasks, deletes...)
	for _, r := range in.releases.Owned {
		switch {
		case modules[r] || r == in.ignore:
		case slices.Contains(in.unloaded, r):
			p.kept = append(p.kept, r)
		default:
			p.tasks = append(p.tasks, messages.Task{Kind: messages.TaskModulePurge, Owner: messages.OwnerOperator,
				Module: r, Reason: "module dir gone: no module " + r + " in the modules dirs", Cause: CauseModuleDirGone})
		}
	}
	return p
}
