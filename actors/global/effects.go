package global

import (
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/values"
)

// Env is what the shell reads for each Step.
type Env struct{ Now time.Time }

// Event is an input of the global core.
type Event interface{ globalEvent() }

// Events of the global core; those of a hook run name their queue.
type (
	TaskAssigned struct{ Assigned hookrun.Assigned }
	// HookRunEvent is an event of a queue's hook run: the worker's
	// result, the snapshots or the config write it asked for, its rate
	// limit's token.
	HookRunEvent struct {
		Queue string
		Event hookrun.Event
	}
	// KubeSynced lists the Synchronization runs of the kubernetes
	// bindings (GlobalSynchronization).
	KubeSynced     struct{ Runs messages.KubeSyncRuns }
	SectionChanged struct{ Section any }
	// CheckAsked is the config actor's question whether the global section
	// of a ConfigMap change would be taken (CheckConfig).
	CheckAsked struct{ Check messages.CheckConfig }
	// Started: the actor started, with the scope of the values files and
	// what it has (a kube actor, a clock, a webhook server).
	Started struct {
		Scope                          values.Scope
		WithKube, Paced, ServeWebhooks bool
	}
	// Configured is the worker's configuring of the global hooks.
	Configured struct {
		Hooks hookrun.HookSet
		Err   error
	}
	// WebhooksRegistered is the worker's registering of their webhooks.
	WebhooksRegistered struct{ Err error }
	// Stopping: the actor is being stopped; new tasks fail from now on.
	Stopping         struct{}
	HookEventArrived struct{ Event messages.HookEvent }
)

func (TaskAssigned) globalEvent()       {}
func (HookRunEvent) globalEvent()       {}
func (KubeSynced) globalEvent()         {}
func (SectionChanged) globalEvent()     {}
func (CheckAsked) globalEvent()         {}
func (HookEventArrived) globalEvent()   {}
func (Started) globalEvent()            {}
func (Configured) globalEvent()         {}
func (WebhooksRegistered) globalEvent() {}
func (Stopping) globalEvent()           {}

// Effect is an output of the global core: one of the types below, a closed
// set the actor's apply covers case by case.
type Effect interface{ globalEffect() }

// Effects of the global core.
type (
	// InQueue is a queue's hook run effect (hookrun.GetSnapshots,
	// ArmTimer, RunHook, Ran, WriteConfigPatch), carried out with that
	// queue's worker and tag.
	InQueue struct {
		Queue  string
		Effect hookrun.Effect
	}
	Reply struct {
		To   *actor.PID
		Done messages.TaskDone
	}
	Publish     struct{}
	ConfigReply struct{ Reply messages.ConfigApplied }
	// CheckReply answers CheckConfig.
	CheckReply struct{ Reply messages.ConfigChecked }
	Enqueue    struct{ Tasks []messages.Task }
	// WatchKube starts the kubernetes bindings; with Sync their
	// Synchronization runs come back as KubeSynced, those of named queues
	// that wait listed too.
	WatchKube struct{ Sync bool }
	// StartSchedules starts the schedule bindings.
	StartSchedules struct{}
	// WebhooksSynced: the global Synchronization is done, the global
	// hooks may answer webhooks.
	WebhooksSynced struct{}
	// SyncWaiting: the GlobalSynchronization task waits for Runs runs in
	// named queues; the actor logs it.
	SyncWaiting struct{ Runs int }
	// HooksConfigured: the hooks are configured (Count) or failed to be;
	// the actor logs it.
	HooksConfigured struct {
		Count int
		Err   error
	}
	// RegisterWebhooks serves and registers the global hooks' webhook
	// bindings (WebhooksRegistered follows).
	RegisterWebhooks struct{}
	// WebhooksFailed: the webhooks could not be registered; the actor
	// logs it.
	WebhooksFailed struct{ Err error }
	// Ready tells the operator the global actor has started (Err: it
	// failed to).
	Ready struct{ Err string }
	// EnsureWorker spawns the queue's worker if it has none: before the
	// task's first step, so that no worker is spawned once the actor
	// stops (it would never be stopped).
	EnsureWorker struct{ Queue string }
)

func (InQueue) globalEffect()          {}
func (Reply) globalEffect()            {}
func (Publish) globalEffect()          {}
func (ConfigReply) globalEffect()      {}
func (CheckReply) globalEffect()       {}
func (Enqueue) globalEffect()          {}
func (WatchKube) globalEffect()        {}
func (StartSchedules) globalEffect()   {}
func (WebhooksSynced) globalEffect()   {}
func (SyncWaiting) globalEffect()      {}
func (HooksConfigured) globalEffect()  {}
func (RegisterWebhooks) globalEffect() {}
func (Ready) globalEffect()            {}
func (WebhooksFailed) globalEffect()   {}
func (EnsureWorker) globalEffect()     {}
