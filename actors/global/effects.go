package global

import (
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/actors/step"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/hookrun/owner"
	"github.com/addon-actors/addon-operator/messages"
)

// Env is what the shell reads for each Step.
type Env struct{ Now time.Time }

// Event is an input of the global core.
type Event interface{ globalEvent() }

// Events of the global core.
type (
	TaskAssigned struct{ Assigned hookrun.Assigned }
	// OwnerEvent is an event the global actor has as an owner, the same as
	// a module's (owner.CheckAsked, SectionChanged, HookEventArrived,
	// HookRunEvent), for the core's owner.Owner.
	OwnerEvent struct{ Event owner.Event }
	// KubeSynced lists the Synchronization runs of the kubernetes
	// bindings (GlobalSynchronization).
	KubeSynced struct{ Runs messages.KubeSyncRuns }
	// Started: the actor started; the core publishes its scope and has its
	// hooks configured.
	Started struct{}
	// Configured is the worker's configuring of the global hooks.
	Configured struct {
		Hooks hookrun.HookSet
		Err   error
	}
	// WebhooksRegistered is the worker's registering of their webhooks.
	WebhooksRegistered struct{ Err error }
	// Stopping: the actor is being stopped; new tasks fail from now on.
	Stopping struct{}
)

func (TaskAssigned) globalEvent()       {}
func (OwnerEvent) globalEvent()         {}
func (KubeSynced) globalEvent()         {}
func (Started) globalEvent()            {}
func (Configured) globalEvent()         {}
func (WebhooksRegistered) globalEvent() {}
func (Stopping) globalEvent()           {}

// Effect is an output of the global core: one of the types below, a closed
// set the actor's apply covers case by case. Each carries what its applier
// needs: the shell reads no core state.
type Effect interface{ globalEffect() }

// Effects of the global core.
type (
	// Owned is an effect of the core's owner.Owner for the shell
	// (CheckReply, ConfigReply, Publish, Enqueue, InRun).
	Owned struct{ Effect owner.Effect }
	Reply struct {
		To   *actor.PID
		Done messages.TaskDone
	}
	// ConfigureHooks asks the main queue's worker to configure the hooks
	// (Configured follows).
	ConfigureHooks struct{}
	// WatchKube starts the kubernetes bindings (Watch, its monitors
	// filled in); with Sync their Synchronization runs come back to the
	// actor as KubeSynced, those of named queues that wait listed too.
	WatchKube struct {
		Watch messages.WatchKube
		Sync  bool
	}
	// StartSchedules starts the schedule bindings.
	StartSchedules struct{ Watch messages.WatchSchedules }
	// WebhooksSynced: the global Synchronization is done, the global
	// hooks, whose webhooks are served, may answer them.
	WebhooksSynced struct{}
	// RegisterWebhooks serves and registers the webhook bindings of Hooks
	// (WebhooksRegistered follows).
	RegisterWebhooks struct{ Hooks hookrun.HookSet }
	// Ready tells the operator the global actor has started (Err: it
	// failed to).
	Ready struct{ Err string }
	// EnsureWorker spawns the queue's worker if it has none: before the
	// task's first step, so that no worker is spawned once the actor
	// stops (it would never be stopped).
	EnsureWorker struct{ Queue string }
	// Log is a record for the actor's log.
	Log step.Log
)

func (Owned) globalEffect()            {}
func (Reply) globalEffect()            {}
func (ConfigureHooks) globalEffect()   {}
func (WatchKube) globalEffect()        {}
func (StartSchedules) globalEffect()   {}
func (WebhooksSynced) globalEffect()   {}
func (RegisterWebhooks) globalEffect() {}
func (Ready) globalEffect()            {}
func (EnsureWorker) globalEffect()     {}
func (Log) globalEffect()              {}
