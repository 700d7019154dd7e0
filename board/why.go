package board

import "time"

// EnabledLayer is one layer's say on a module's enabled flag, low to high:
// the modules dir's values.yaml, the module's values.yaml, the ConfigMap, a
// global hook. Value is nil when the layer does not mention the module.
type EnabledLayer struct {
	Layer string `json:"layer"`
	Key   string `json:"key"`
	Value *bool  `json:"value"`
}

// EnabledDecision is how the last discovery decided a module's enabled
// state (published by the operator).
type EnabledDecision struct {
	Module string         `json:"module"`
	Layers []EnabledLayer `json:"layers"`
	// ByLayers is what the layers decide (the highest with a say wins).
	ByLayers bool `json:"byLayers"`
	// Script is the enabled script's answer: "true", "false", "none" (the
	// module has no script) or "" (not asked: the layers disabled it).
	Script  string `json:"script,omitempty"`
	Enabled bool   `json:"enabled"`
	// Requires are the module's requirements (module.yaml), and Unmet
	// those that disabled it (the final say).
	Requires []string `json:"requires,omitempty"`
	Unmet    []string `json:"unmet,omitempty"`
	// Reason says in a sentence what decided it.
	Reason string    `json:"reason"`
	At     time.Time `json:"at"`
}

// RunRecord is a module's last run or delete: its phases as the module
// core went through them (published by the module actor).
type RunRecord struct {
	Kind    string        `json:"kind"`
	Reason  string        `json:"reason,omitempty"`
	Started time.Time     `json:"started"`
	Ended   time.Time     `json:"ended,omitzero"`
	Phases  []PhaseRecord `json:"phases"`
	Err     string        `json:"err,omitempty"`
}

// PhaseRecord is one phase of a run; End is zero while it runs.
type PhaseRecord struct {
	Phase string    `json:"phase"`
	Start time.Time `json:"start"`
	End   time.Time `json:"end,omitzero"`
}

// HelmRecord is what the last helm step of a module did and why
// (chartrun's decision, or maintenance mode).
type HelmRecord struct {
	// Action is "installed", "upgraded" or "skipped".
	Action   string    `json:"action"`
	Reason   string    `json:"reason"`
	Revision int       `json:"revision,omitempty"`
	At       time.Time `json:"at"`
}

// SetEnabledDecisions publishes the last discovery's decisions by module
// (operator only).
func (b *Board) SetEnabledDecisions(byModule map[string]EnabledDecision) {
	b.enabledDecisions.store(byModule)
	b.notify()
}

// EnabledDecisions returns the last discovery's decisions by module.
func (b *Board) EnabledDecisions() map[string]EnabledDecision {
	return b.enabledDecisions.load()
}
