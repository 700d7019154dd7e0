package module

import (
	"encoding/json"
	"log/slog"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/actors/step"
	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/chartrun/crds"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/values"
)

// Env is what the shell reads for each Step: the clock's time and the
// published inputs a run pins when it starts (global values, the enabled
// modules), so that every hook and the helm upgrade of one run see the same.
type Env struct {
	Now     time.Time
	Global  values.Snapshot
	Enabled []string
}

// Event is an input of the module core.
type Event interface{ moduleEvent() }

// Events of the module core, one per message the actor turns into one;
// CheckEvent, WebhookEvent and DeleteEvent carry the events of a
// sub-machine.
type (
	// TaskAssigned is a task the queue gave (RunTask).
	TaskAssigned struct{ Assigned hookrun.Assigned }
	// HookRunEvent is an event of the running hook run: the worker's
	// result, the snapshots or the config write it asked for, its rate
	// limit's token.
	HookRunEvent struct{ Event hookrun.Event }
	// KubeSynced lists the Synchronization runs of the kubernetes bindings.
	KubeSynced struct{ Runs messages.KubeSyncRuns }
	// HelmFinished is the worker's upgrade result.
	HelmFinished struct{ Result worker.HelmResult }
	// HelmWaiting lists what the helm step waits for.
	HelmWaiting struct{ NotReady []string }
	// SectionChanged is the module's ConfigMap section and maintenance
	// mode (ApplyConfig); with ReloadFollows, the reload of all modules
	// that the same change queues runs the module.
	SectionChanged struct {
		Section       any
		Maintenance   bool
		ReloadFollows bool
	}
	// CheckAsked is the config actor's question whether the module would
	// take a section of a ConfigMap change (CheckConfig).
	CheckAsked struct{ Check messages.CheckConfig }
	// HookEventArrived is an event source's event for one of the hooks.
	HookEventArrived struct{ Event messages.HookEvent }
	// Disabled: the operator disabled the module.
	Disabled struct{}
	// Removed: the module's dir is gone.
	Removed struct{}
	// Configured is the worker's configuring of the hooks: the hooks and
	// the module's crds/, or the error that leaves it out.
	Configured struct {
		Hooks hookrun.HookSet
		CRDs  []crds.CRD
		Err   error
	}
	// EnabledAsked is discovery's CheckEnabled, From the one to answer.
	EnabledAsked struct {
		EnabledBefore []string
		From          *actor.PID
	}
	// EnabledScriptDone is the worker's run of the enabled script.
	EnabledScriptDone struct {
		Enabled bool
		Err     error
	}
	// ReconfigureDue: the retry of the hooks' configuration is due.
	ReconfigureDue struct{}
	// CheckEvent is an event of the release check (check.go).
	CheckEvent struct{ Event checkEvent }
	// WebhookEvent is a worker's result of the crds/ or the webhooks
	// (webhooks.go).
	WebhookEvent struct{ Event webhookEvent }
	// DeleteEvent is a worker's result of a delete (delete.go).
	DeleteEvent struct{ Event deleteEvent }
)

func (TaskAssigned) moduleEvent()      {}
func (HookRunEvent) moduleEvent()      {}
func (KubeSynced) moduleEvent()        {}
func (HelmFinished) moduleEvent()      {}
func (HelmWaiting) moduleEvent()       {}
func (SectionChanged) moduleEvent()    {}
func (CheckAsked) moduleEvent()        {}
func (HookEventArrived) moduleEvent()  {}
func (Disabled) moduleEvent()          {}
func (Removed) moduleEvent()           {}
func (Configured) moduleEvent()        {}
func (EnabledAsked) moduleEvent()      {}
func (EnabledScriptDone) moduleEvent() {}
func (ReconfigureDue) moduleEvent()    {}
func (CheckEvent) moduleEvent()        {}
func (WebhookEvent) moduleEvent()      {}
func (DeleteEvent) moduleEvent()       {}

// Effect is an output of the module core: one of the types below, a closed
// set the actor's apply covers case by case. The sub-machines' effects come
// wrapped, one wrapper each (HookEffect, LifeEffect, CheckEffect,
// WebhookEffect, DeleteEffect), and are carried out by their own applier;
// those that are the core's too (Log, Enqueue, DestructiveDone) come as
// they are.
type Effect interface{ moduleEffect() }

// Effects of the module core.
type (
	// HookEffect is a hook run's effect that the actor carries out
	// (hookrun.GetSnapshots, ArmTimer, RunHook, Ran, WriteConfigPatch);
	// the core keeps Committed and Finished. Task is the running task.
	HookEffect struct {
		Effect hookrun.Effect
		Task   messages.Task
	}
	// LifeEffect, CheckEffect, WebhookEffect and DeleteEffect are the
	// effects of the sub-machines.
	LifeEffect    struct{ Effect lifeEffect }
	CheckEffect   struct{ Effect checkEffect }
	WebhookEffect struct{ Effect webhookEffect }
	DeleteEffect  struct{ Effect deleteEffect }
	// Log is a record for the module's log.
	Log step.Log
	// RunHelm upgrades the release with Values, in maintenance mode when
	// Maintenance (UPSTREAM.md §7: labelled once, then left as it is),
	// looking for drift with Drift, waiting for the workloads with Wait;
	// Module is the module's values (its secrets are masked).
	RunHelm struct {
		Values                   map[string]any
		Module                   values.Snapshot
		Maintenance, Drift, Wait bool
		WaitTimeout              time.Duration
	}
	// Watch starts (On) or stops the schedule and kubernetes bindings of
	// Hooks; with Sync their Synchronization runs come back as KubeSynced.
	Watch struct {
		On, Sync bool
		Hooks    hookrun.HookSet
	}
	// Reply answers a task's queue.
	Reply struct {
		To   *actor.PID
		Done messages.TaskDone
	}
	// Publish shows the module's state, values and patches on the board
	// (when Board) and its tasks in the inspector.
	Publish struct {
		State   board.ModuleState
		Values  values.Snapshot
		Patches json.RawMessage
		Waiting int
		Board   bool
	}
	// ConfigReply answers ApplyConfig.
	ConfigReply struct{ Reply messages.ConfigApplied }
	// CheckReply answers CheckConfig.
	CheckReply struct{ Reply messages.ConfigChecked }
	// Observed is a finished module run (Helm false) or helm upgrade, for
	// metrics.
	Observed struct {
		Helm       bool
		Activation messages.Activation // the module run's
		Took       time.Duration
		Err        error
	}
	// DestructiveDone counts destructive actions on the release.
	DestructiveDone struct{ Actions []worker.Destructive }
	// Enqueue queues tasks.
	Enqueue struct{ Tasks []messages.Task }
	// MaintenanceSet: the maintenance state changed to State ("" is
	// Managed), for the metric and the log.
	MaintenanceSet struct{ State string }
	// Forget removes the module's published state and metrics: the failed
	// start's and maintenance's when set, its webhooks' with Webhooks.
	Forget struct{ StartFailed, InMaintenance, Webhooks bool }
	// TaskStatus shows what the running task waits for in the queue.
	TaskStatus struct{ Progress messages.TaskProgress }
)

func (HookEffect) moduleEffect()      {}
func (LifeEffect) moduleEffect()      {}
func (CheckEffect) moduleEffect()     {}
func (WebhookEffect) moduleEffect()   {}
func (DeleteEffect) moduleEffect()    {}
func (Log) moduleEffect()             {}
func (RunHelm) moduleEffect()         {}
func (Watch) moduleEffect()           {}
func (Reply) moduleEffect()           {}
func (Publish) moduleEffect()         {}
func (ConfigReply) moduleEffect()     {}
func (CheckReply) moduleEffect()      {}
func (Observed) moduleEffect()        {}
func (DestructiveDone) moduleEffect() {}
func (Enqueue) moduleEffect()         {}
func (MaintenanceSet) moduleEffect()  {}
func (Forget) moduleEffect()          {}
func (TaskStatus) moduleEffect()      {}

// logAt is a Log effect.
func logAt(level slog.Level, msg string, args ...any) Log { return Log(step.At(level, msg, args...)) }
