package messages

import "github.com/addon-actors/addon-operator/hookexec/bindings"

// HookMonitor is one kubernetes (or onKubernetesEvent) binding of one hook.
type HookMonitor struct {
	Hook    string
	Version bindings.Version
	Binding bindings.KubernetesBinding
}

// WatchKube replaces the monitors of an owner (global, or a module while
// it is enabled); an empty list stops them.
type WatchKube struct {
	Owner    string
	Module   string
	Monitors []HookMonitor
}

// KubeSynced tells the operator that every monitor of an owner has listed
// its objects and queued its Synchronization run (at once for an owner
// with none). Start-up waits for the global hooks' (LIFECYCLE-STEPS step 2).
type KubeSynced struct {
	Owner string
}
