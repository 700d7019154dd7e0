package board

import (
	"encoding/json"
	"slices"
	"sort"

	"github.com/addon-actors/addon-operator/hook/bctx"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/values"
	"github.com/addon-actors/addon-operator/values/mask"
)

// Reader is the board's one read side: what the debug API, plan and the
// CLI's server side read of the published state, typed. The conventions
// of the write side (the phase of a module no actor runs, the failed
// phase, an owner's values as three publications) are read here, once;
// readers never match a phase or a key name themselves. *Board is the
// one implementation.
type Reader interface {
	// Module is one module's published state, as its actor published it.
	Module(name string) (ModuleState, bool)
	// Modules is every module's published state, by name.
	Modules() map[string]ModuleState
	// Known is a module as the operator knows it: its published state with
	// the reason its dir cannot be seen now, or for a dir not seen since
	// start-up (no actor yet) an unseen state carrying that reason.
	Known(name string) (ModuleState, bool)
	// KnownModules is every module Known returns, by name.
	KnownModules() []ModuleState
	// FailedToStart are the modules whose actor could not start (its
	// hooks' --config failed), sorted.
	FailedToStart() []string
	// EnabledModules are the enabled modules in run order.
	EnabledModules() []string
	// DirErrors are the modules whose dir cannot be seen, with the reason.
	DirErrors() map[string]string
	// EnabledDecisions are the last discovery's decisions by module.
	EnabledDecisions() map[string]EnabledDecision
	// Converge is what the converge in flight waits for.
	Converge() ConvergeState

	// Global is the global values; DynamicEnabled the enabled flags global
	// hooks set in memory.
	Global() values.Snapshot
	DynamicEnabled() map[string]bool
	// ModuleValues is a module's values.
	ModuleValues(module string) (values.Snapshot, bool)
	// OwnerValues is what an owner ("global" or a module name) published
	// of its values: the snapshot, its in-memory patches, its password
	// paths; false for a module that published none.
	OwnerValues(owner string) (OwnerValues, bool)
	// Patches are an owner's in-memory values patches ([] when none).
	Patches(owner string) json.RawMessage
	// Passwords are the paths owner's schemas mark `format: password`.
	Passwords(owner string) mask.Paths
	// Secrets are the values every password setting holds now.
	Secrets() mask.Secrets

	// Queues are the queues; Hooks the hook statistics by "owner:hook".
	Queues() messages.QueueSnapshot
	Hooks() map[string]HookStats
	// Snapshots are the objects of an owner's hook's kubernetes bindings.
	Snapshots(owner, hook string) (bctx.Snapshots, bool)
	// Webhooks are the webhooks owner serves.
	Webhooks(owner string) []WebhookState
	// Config is the ConfigMap's state.
	Config() ConfigState
	// Ready tells whether the first converge is done.
	Ready() bool
}

var _ Reader = (*Board)(nil)

// OwnerValues is an owner's values as it published them.
type OwnerValues struct {
	Snapshot values.Snapshot
	// Patches is its in-memory layer as a JSON patch ([] when none).
	Patches json.RawMessage
	// Passwords are the paths its schemas mark `format: password`.
	Passwords mask.Paths
}

// OwnerValues returns what owner published of its values.
func (b *Board) OwnerValues(owner string) (OwnerValues, bool) {
	s, ok := b.Global(), true
	if owner != values.GlobalKey {
		s, ok = b.ModuleValues(owner)
	}
	if !ok {
		return OwnerValues{}, false
	}
	return OwnerValues{Snapshot: s, Patches: b.Patches(owner), Passwords: b.Passwords(owner)}, true
}

// Known returns a module as the operator knows it, false when it knows
// nothing of it.
func (b *Board) Known(name string) (ModuleState, bool) {
	reason, unseen := b.DirErrors()[name]
	st, ok := b.Module(name)
	switch {
	case ok:
		st.DirError = reason
		return st, true
	case unseen:
		return unseenState(name, reason), true
	}
	return ModuleState{}, false
}

// KnownModules returns every module the operator knows, by name.
func (b *Board) KnownModules() []ModuleState {
	dirErrors := b.DirErrors()
	states := b.Modules()
	var out []ModuleState // nil when none: the debug API's JSON null
	for _, m := range states {
		m.DirError = dirErrors[m.Name]
		out = append(out, m)
	}
	for name, reason := range dirErrors {
		if _, ok := states[name]; !ok {
			out = append(out, unseenState(name, reason))
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// FailedToStart returns the modules published in the failed phase.
func (b *Board) FailedToStart() []string {
	var out []string
	for name, st := range b.Modules() {
		if st.Phase == PhaseFailed {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// unseenState is the state of a module whose dir has not been seen since
// start-up.
func unseenState(name, reason string) ModuleState {
	return ModuleState{Name: name, Phase: PhaseUnseen, DirError: reason}
}
