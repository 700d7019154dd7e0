package whatif

import (
	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/chartrun/manifestdiff"
	"github.com/addon-actors/addon-operator/moduleconfig"
)

// Request is the body of POST /plan.
type Request struct {
	// Data is the candidate ConfigMap data; nil plans the live ConfigMap's.
	Data map[string]string `json:"data"`
	// Set are `key=value` edits applied to Data (see ApplySets).
	Set []string `json:"set,omitempty"`
	// ModuleConfigs are candidate ModuleConfig objects, laid over Data
	// (a ModuleConfig wins over its module's ConfigMap keys).
	ModuleConfigs []moduleconfig.ModuleConfig `json:"moduleConfigs,omitempty"`
}

// HooksNote is what every plan says of the hooks it did not run.
const HooksNote = "only enabled scripts were run: beforeHelm, afterHelm and other hooks were not, and may change values further"

// Plan is what a converge would do with a candidate configuration.
type Plan struct {
	// Valid is false when the candidate breaks a schema or cannot be
	// parsed or rendered; Errors say where.
	Valid  bool      `json:"valid"`
	Errors []Problem `json:"errors,omitempty"`
	// Changed is true when applying the candidate would change anything.
	Changed bool `json:"changed"`
	// Enabled are the modules discovery would enable, in run order.
	Enabled []string `json:"enabled"`
	// Unmet are the modules unmet requirements would disable (module.yaml),
	// with the reasons.
	Unmet map[string][]string `json:"unmet,omitempty"`
	// Enable and Disable are the modules whose state would change.
	Enable  []Toggle `json:"enable,omitempty"`
	Disable []Toggle `json:"disable,omitempty"`
	// Global is the global values' change.
	Global ValuesChange `json:"global"`
	// Modules are the module runs and deletes, in queue order.
	Modules []ModulePlan `json:"modules"`
	// Purges are releases whose module dir is gone.
	Purges []Toggle `json:"purges,omitempty"`
	Note   string   `json:"note"`
	// Warnings are what the candidate's ModuleConfigs say: obsolete
	// versions, unknown modules, ConfigMap keys they hide.
	Warnings []string `json:"warnings,omitempty"`
}

// Problem is one reason the candidate is invalid.
type Problem struct {
	// Key is the ConfigMap key ("global", a module's values key) or the
	// module whose chart failed to render; empty for the whole ConfigMap.
	Key   string `json:"key"`
	Error string `json:"error"`
}

// Toggle is a module whose enabled state would change, or a purge.
type Toggle struct {
	Module string `json:"module"`
	Reason string `json:"reason"`
	// Webhooks are the module's webhook bindings, which the enable
	// registers or the disable removes.
	Webhooks []board.WebhookState `json:"webhooks,omitempty"`
}

// ValuesChange is the values a scope would get, and their diff (YAML)
// from the values in force; Diff is empty when they are equal.
type ValuesChange struct {
	Values any    `json:"values,omitempty"`
	Diff   string `json:"diff,omitempty"`
}

// ModulePlan is one module run or delete.
type ModulePlan struct {
	Name   string `json:"name"`
	Action string `json:"action"` // "run" or "delete"
	Reason string `json:"reason,omitempty"`
	// Group numbers (from 1, in queue order) the ParallelModuleRun the
	// run is one of: a weight's runs in parallel queues
	// (ADDON_OPERATOR_PARALLEL_MODULE_RUNS), or the runs ordered by
	// requirements; 0 for a run on its own.
	Group int `json:"group,omitempty"`
	ValuesChange
	// Revision is the deployed release's revision (0: none).
	Revision int `json:"revision,omitempty"`
	// Recovery says what the run or delete does first with a release helm
	// left stuck (pending-*, uninstalling): the revision and state found,
	// and how it is recovered.
	Recovery string `json:"recovery,omitempty"`
	// Objects are the release's objects that would be added, removed or
	// changed.
	Objects []manifestdiff.Change `json:"objects,omitempty"`
	// Drift are the release's objects whose live state differs from what
	// the manifest sets, as the last drift check found them: a run (in
	// restore mode, the next check) puts them back.
	Drift []board.DriftState `json:"drift,omitempty"`
}

// Actions of a ModulePlan.
const (
	ActionRun    = "run"
	ActionDelete = "delete"
)

// changed tells whether the plan changes anything.
func (p *Plan) changed() bool {
	if len(p.Enable)+len(p.Disable)+len(p.Purges) > 0 || p.Global.Diff != "" {
		return true
	}
	for _, m := range p.Modules {
		if m.Action == ActionDelete || m.Diff != "" || len(m.Objects)+len(m.Drift) > 0 {
			return true
		}
	}
	return false
}
