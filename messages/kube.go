package messages

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/hook/bctx"
	"github.com/addon-actors/addon-operator/hook/bindings"
)

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
	// SyncTo, when set, receives the Synchronization runs as KubeSyncRuns
	// instead of as HookEvents for the owner to queue: a module runs them
	// inside its first module run, between onStartup and beforeHelm
	// (LIFECYCLE-STEPS step 5); the global actor after the global onStartup
	// hooks (step 2). A binding in a named queue with
	// waitForSynchronization: false goes to its queue all the same: nothing
	// waits for it.
	SyncTo *actor.PID
	// WaitNamed queues the Synchronization of a named queue's binding in
	// its queue even when it waits (waitForSynchronization), and lists it
	// in KubeSyncRuns.Waited: the owner waits for that task to finish
	// (the global hooks; a module runs them inside its own run instead).
	WaitNamed bool
}

// SyncRef names the Synchronization run of one binding.
type SyncRef struct {
	Hook    string
	Binding string
}

// SyncRun is the Synchronization run of one binding.
type SyncRun struct {
	Hook    string
	Binding string
	// Group is the binding's group: one run stands for the whole group.
	Group   string
	Context []byte
	// AllowFailure is the binding's allowFailure: a failed run is logged,
	// counted apart and dropped, and the owner goes on.
	AllowFailure bool
}

// KubeSyncRuns hands an owner its Synchronization runs, in hook order, once
// all its monitors have listed.
type KubeSyncRuns struct {
	Owner string
	Runs  []SyncRun
	// Waited are the Synchronization runs queued in named queues that the
	// owner waits for (WatchKube.WaitNamed): each is a task with Sync set.
	Waited []SyncRef
	// Err names the bindings that could not be watched; the module run
	// fails with it (and is retried).
	Err string
}

// KubeSynced tells the operator that every monitor of an owner has listed
// its objects and handed out its Synchronization run (at once for an owner
// with none). Start-up waits for the global hooks' (LIFECYCLE-STEPS step 2).
type KubeSynced struct {
	Owner string
	// Err names the bindings that could not be watched (an unknown kind):
	// fatal for the global hooks at start-up.
	Err string
}

// GetSnapshots asks the kube actor for the current objects of every
// kubernetes binding of one hook; the reply is HookSnapshots. ORDER hooks
// (beforeHelm, afterAll, ...) get them in their binding context.
type GetSnapshots struct {
	Owner string
	Hook  string
	Tag   string // echoed in the reply
}

// HookSnapshots answers GetSnapshots, by binding name.
type HookSnapshots struct {
	Snapshots bctx.Snapshots
	Tag       string
}
