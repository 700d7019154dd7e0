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
	"github.com/addon-actors/addon-operator/hookrun/owner"
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

// TaskAssigned is a task the queue gave (RunTask).
type TaskAssigned struct{ Assigned hookrun.Assigned }

func (TaskAssigned) moduleEvent() {}

// OwnerEvent is an event the module has as an owner, as the global actor
// has it too (owner.CheckAsked, HookEventArrived, and HookRunEvent, an
// event of the running hook run under the queue key ""), for the core's
// owner.Owner (core_owner.go).
type OwnerEvent struct{ Event owner.Event }

func (OwnerEvent) moduleEvent() {}

// KubeSynced lists the Synchronization runs of the kubernetes bindings.
type KubeSynced struct{ Runs messages.KubeSyncRuns }

func (KubeSynced) moduleEvent() {}

// HelmFinished is the worker's upgrade result.
type HelmFinished struct{ Result worker.HelmResult }

func (HelmFinished) moduleEvent() {}

// HelmWaiting lists what the helm step waits for.
type HelmWaiting struct{ NotReady []string }

func (HelmWaiting) moduleEvent() {}

// SectionChanged is the module's ConfigMap section and maintenance
// mode (ApplyConfig); with ReloadFollows, the reload of all modules
// that the same change queues runs the module.
type SectionChanged struct {
	Section       any
	Maintenance   bool
	ReloadFollows bool
}

func (SectionChanged) moduleEvent() {}

// Disabled: the operator disabled the module.
type Disabled struct{}

func (Disabled) moduleEvent() {}

// Removed: the module's dir is gone.
type Removed struct{}

func (Removed) moduleEvent() {}

// Configured is the worker's configuring of the hooks: the hooks and
// the module's crds/, or the error that leaves it out.
type Configured struct {
	Hooks hookrun.HookSet
	CRDs  []crds.CRD
	Err   error
}

func (Configured) moduleEvent() {}

// EnabledAsked is discovery's CheckEnabled, From the one to answer.
type EnabledAsked struct {
	EnabledBefore []string
	From          *actor.PID
}

func (EnabledAsked) moduleEvent() {}

// EnabledScriptDone is the worker's run of the enabled script.
type EnabledScriptDone struct {
	Enabled bool
	Err     error
}

func (EnabledScriptDone) moduleEvent() {}

// ReconfigureDue: the retry of the hooks' configuration is due.
type ReconfigureDue struct{}

func (ReconfigureDue) moduleEvent() {}

// CheckEvent is an event of the release check (check.go).
type CheckEvent struct{ Event checkEvent }

func (CheckEvent) moduleEvent() {}

// WebhookEvent is a worker's result of the crds/ or the webhooks
// (webhooks.go).
type WebhookEvent struct{ Event webhookEvent }

func (WebhookEvent) moduleEvent() {}

// DeleteEvent is a worker's result of a delete (delete.go).
type DeleteEvent struct{ Event deleteEvent }

func (DeleteEvent) moduleEvent() {}

// Effect is an output of the module core: one of the types below, a closed
// set the actor's apply covers case by case. The sub-machines' effects come
// wrapped, one wrapper each (Owned, LifeEffect, CheckEffect,
// WebhookEffect, DeleteEffect), and are carried out by their own applier;
// those that are the core's too (Log, Enqueue, DestructiveDone) come as
// they are.
type Effect interface{ moduleEffect() }

// Owned is an effect of the core's owner.Owner that the actor carries out
// with owner.Shell (CheckReply, ConfigReply, Enqueue, and InRun, a hook
// run's effect with the running task); the core keeps RunCommitted and
// RunFinished, and turns Publish into its own.
type Owned struct{ Effect owner.Effect }

func (Owned) moduleEffect() {}

// LifeEffect is an effect of the start (startup.go).
type LifeEffect struct{ Effect lifeEffect }

func (LifeEffect) moduleEffect() {}

// CheckEffect is an effect of the release check (check.go).
type CheckEffect struct{ Effect checkEffect }

func (CheckEffect) moduleEffect() {}

// WebhookEffect is an effect of the crds/ and webhooks (webhooks.go).
type WebhookEffect struct{ Effect webhookEffect }

func (WebhookEffect) moduleEffect() {}

// DeleteEffect is an effect of a delete (delete.go).
type DeleteEffect struct{ Effect deleteEffect }

func (DeleteEffect) moduleEffect() {}

// Log is a record for the module's log.
type Log step.Log

func (Log) moduleEffect() {}

// RunHelm upgrades the release with Values, in maintenance mode when
// Maintenance (UPSTREAM.md §7: labelled once, then left as it is),
// looking for drift with Drift, waiting for the workloads with Wait;
// Module is the module's values (its secrets are masked); Force upgrades
// an up-to-date release (the task's Force).
type RunHelm struct {
	Values                          map[string]any
	Module                          values.Snapshot
	Maintenance, Drift, Wait, Force bool
	WaitTimeout                     time.Duration
}

func (RunHelm) moduleEffect() {}

// Watch starts (On) or stops the schedule and kubernetes bindings of
// Hooks; with Sync their Synchronization runs come back as KubeSynced.
type Watch struct {
	On, Sync bool
	Hooks    hookrun.HookSet
}

func (Watch) moduleEffect() {}

// Reply answers a task's queue.
type Reply struct {
	To   *actor.PID
	Done messages.TaskDone
}

func (Reply) moduleEffect() {}

// Publish shows the module's state, values and patches on the board
// (when Board) and its tasks in the inspector.
type Publish struct {
	State   board.ModuleState
	Values  values.Snapshot
	Patches json.RawMessage
	Waiting int
	Board   bool
}

func (Publish) moduleEffect() {}

// Observed is a finished module run (Helm false) or helm upgrade, for
// metrics.
type Observed struct {
	Helm       bool
	Activation messages.Activation // the module run's
	Took       time.Duration
	Err        error
}

func (Observed) moduleEffect() {}

// DestructiveDone counts destructive actions on the release.
type DestructiveDone struct{ Actions []worker.Destructive }

func (DestructiveDone) moduleEffect() {}

// Enqueue queues tasks.
type Enqueue struct{ Tasks []messages.Task }

func (Enqueue) moduleEffect() {}

// MaintenanceSet: the maintenance state changed to State ("" is
// Managed), for the metric and the log.
type MaintenanceSet struct{ State string }

func (MaintenanceSet) moduleEffect() {}

// Forget removes the module's published state and metrics: the failed
// start's and maintenance's when set, its webhooks' with Webhooks.
type Forget struct{ StartFailed, InMaintenance, Webhooks bool }

func (Forget) moduleEffect() {}

// TaskStatus shows what the running task waits for in the queue.
type TaskStatus struct{ Progress messages.TaskProgress }

func (TaskStatus) moduleEffect() {}

// logAt is a Log effect.
func logAt(level slog.Level, msg string, args ...any) Log { return Log(step.At(level, msg, args...)) }
