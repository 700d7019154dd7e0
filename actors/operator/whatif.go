package operator

import (
	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/values"
)

// WhatIf is a discovery's outcome that no actor carried out: `plan` asks
// what a converge would do with a candidate configuration.
type WhatIf struct {
	Modules []layout.Definition // in module order
	// Enabled are the modules discovery would enable, in module order;
	// ByScript those whose enabled script said false.
	Enabled  []string
	ByScript map[string]bool
	// Unmet are the modules unmet requirements disabled, with the reasons.
	Unmet map[string][]string
	// Dynamic are the global hooks' enabled flags.
	Dynamic    map[string]bool
	Config     values.Sections
	WasEnabled map[string]bool
	Skipped    func(name string) bool
	// Owned and All are the releases as chartrun.ReleaseNames lists them.
	Owned, All []string
	Unloaded   []string
	Ignore     string // HELM_IGNORE_RELEASE
}

// PlanWhatIf returns the module runs, deletes and purges a converge would
// queue after the discovery in w: the operator's own planConverge, with no
// effects.
func PlanWhatIf(w WhatIf) []messages.Task {
	skipped := w.Skipped
	if skipped == nil {
		skipped = func(string) bool { return false }
	}
	d := &discovery{enabled: w.Enabled, byScript: w.ByScript, dynamic: w.Dynamic, unmet: w.Unmet}
	if d.byScript == nil {
		d.byScript = map[string]bool{}
	}
	p := planConverge(convergeInput{modules: w.Modules, discovered: d, config: w.Config, wasEnabled: w.WasEnabled,
		skipped: skipped, releases: releasesListed{Owned: w.Owned, All: w.All}, unloaded: w.Unloaded, ignore: w.Ignore})
	var out []messages.Task
	for _, t := range p.tasks {
		if t.Kind != messages.TaskParallelModuleRun {
			out = append(out, t)
			continue
		}
		for _, m := range t.Modules { // a graph's runs, in run order
			out = append(out, messages.NewModuleRun(m, t.Reason))
		}
	}
	return out
}
