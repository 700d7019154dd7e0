package module

import (
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/board"
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

// Events of the module core, one per message the actor turns into one.
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
	// ReleaseChecked says whether the release exists (CheckRelease).
	ReleaseChecked struct{ Result worker.ReleaseResult }
	// DeleteFinished is the worker's uninstall result.
	DeleteFinished struct{ Result worker.DeleteResult }
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
	// Disabled: the operator disabled the module.
	Disabled struct{}
	// HookEventArrived is an event source's event for one of the hooks.
	HookEventArrived struct{ Event messages.HookEvent }
	// CRDsApplied is the worker's CRDs result.
	CRDsApplied struct{ Err error }
	// WebhooksRegistered and WebhooksUnregistered are the worker's
	// webhook results.
	WebhooksRegistered   struct{ Err error }
	WebhooksUnregistered struct{ Err error }
	// Started: the actor started, with the scope of the values files.
	Started struct {
		Scope           values.Scope
		WithKube, Paced bool
	}
	// Configured is the worker's configuring of the hooks: the hooks, what
	// the module has to apply and serve, or the error that leaves it out.
	Configured struct {
		Hooks                hookrun.HookSet
		HasCRDs, HasWebhooks bool
		Webhooks             []board.WebhookState
		Err                  error
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
	// HelmWaiting lists what the helm step waits for.
	HelmWaiting struct{ NotReady []string }
	// Removed: the module's dir is gone.
	Removed struct{}
	// CheckDue: the periodic release check's timer fired.
	CheckDue struct{}
	// ReconfigureDue: the retry of the hooks' configuration is due.
	ReconfigureDue struct{}
	// ObjectsChecked is the worker's release check.
	ObjectsChecked struct {
		Check worker.ReleaseCheck
		Err   error
	}
	// DriftRestored is the worker's restore of drifted fields
	// (RestoreDrift).
	DriftRestored struct{ Result worker.RestoreResult }
)

func (TaskAssigned) moduleEvent()         {}
func (HookRunEvent) moduleEvent()         {}
func (KubeSynced) moduleEvent()           {}
func (HelmFinished) moduleEvent()         {}
func (ReleaseChecked) moduleEvent()       {}
func (DeleteFinished) moduleEvent()       {}
func (SectionChanged) moduleEvent()       {}
func (CheckAsked) moduleEvent()           {}
func (Disabled) moduleEvent()             {}
func (HookEventArrived) moduleEvent()     {}
func (CRDsApplied) moduleEvent()          {}
func (WebhooksRegistered) moduleEvent()   {}
func (WebhooksUnregistered) moduleEvent() {}
func (CheckDue) moduleEvent()             {}
func (ReconfigureDue) moduleEvent()       {}
func (Started) moduleEvent()              {}
func (Configured) moduleEvent()           {}
func (EnabledAsked) moduleEvent()         {}
func (EnabledScriptDone) moduleEvent()    {}
func (HelmWaiting) moduleEvent()          {}
func (Removed) moduleEvent()              {}
func (ObjectsChecked) moduleEvent()       {}
func (DriftRestored) moduleEvent()        {}

// Effect is an output of the module core: one of the types below, a closed
// set the actor's apply covers case by case.
type Effect interface{ moduleEffect() }

// Effects of the module core.
type (
	// HookEffect is a hook run's effect that the actor carries out
	// (hookrun.GetSnapshots, ArmTimer, RunHook, Ran, WriteConfigPatch);
	// the core keeps Committed and Finished.
	HookEffect struct{ Effect hookrun.Effect }
	// RunHelm upgrades the release with Values, in maintenance mode when
	// Maintenance (UPSTREAM.md §7: labelled once, then left as it is).
	RunHelm struct {
		Values      map[string]any
		Maintenance bool
	}
	// CheckRelease asks whether the release exists (ReleaseChecked).
	CheckRelease struct{}
	// Uninstall uninstalls the release.
	Uninstall struct{}
	// Watch starts (On) or stops the schedule and kubernetes bindings;
	// with Sync their Synchronization runs come back as KubeSynced.
	Watch struct{ On, Sync bool }
	// Reply answers a task's queue.
	Reply struct {
		To   *actor.PID
		Done messages.TaskDone
	}
	// Publish: the state or the scope changed.
	Publish struct{}
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
	// DeleteFailed counts a failed delete of the module (a
	// beforeDeleteHelm or afterDeleteHelm hook, or the uninstall).
	DeleteFailed struct{ Err error }
	// DestructiveDone counts destructive actions on the release.
	DestructiveDone struct{ Actions []worker.Destructive }
	// HelmUpgraded and Uninstalled are logged by the actor.
	HelmUpgraded struct{ Outcome worker.HelmOutcome }
	Uninstalled  struct {
		Removal worker.Removal
		Reason  string
	}
	// TaskFailed is logged by the actor (at WARN when the task allows
	// failure: the queue drops it).
	TaskFailed struct {
		Err     error
		Allowed bool
	}
	// HookFailureAllowed: a step of the run failed, and its binding allows
	// failure (a Synchronization run): the actor logs it at WARN, and the
	// run goes on.
	HookFailureAllowed struct {
		Hook, Binding string
		Err           error
	}
	// ArmCheck arms the periodic release check (absent objects, drift).
	ArmCheck struct{}
	// Enqueue queues tasks.
	Enqueue struct{ Tasks []messages.Task }
	// MaintenanceSet: the maintenance state changed to State ("" is
	// Managed), for the metric and the log.
	MaintenanceSet struct{ State string }
	// HelmSkipped: the run's helm step left the release as it is, the module being in
	// maintenance mode; the actor logs it.
	HelmSkipped struct{ State string }
	// ApplyCRDs applies the module's crds/ (CRDsApplied follows).
	ApplyCRDs struct{}
	// RegisterWebhooks serves and registers the module's webhook bindings
	// (WebhooksRegistered follows); UnregisterWebhooks removes them
	// (WebhooksUnregistered follows).
	RegisterWebhooks   struct{}
	UnregisterWebhooks struct{}
	// WebhooksSynced: the module's Synchronization is done, its webhook
	// hooks may answer reviews.
	WebhooksSynced struct{}
	// CheckObjects asks the worker for the release's absent and drifted
	// objects (ObjectsChecked follows).
	CheckObjects struct{}
	// CheckFailed: the release check failed; the actor logs it.
	CheckFailed struct{ Err error }
	// AbsentFound: the check found absent objects, a run that restores
	// them is queued; the actor logs it.
	AbsentFound struct{ Objects []string }
	// DriftJudged is what the drift tracker decided (reports, fields
	// given up, objects no longer drifting, restores done and failed), for
	// the log and the metrics.
	DriftJudged struct {
		Step driftStep
		Mode string
	}
	// RestoreDrift asks the worker to put drifted fields back.
	RestoreDrift struct{ Drift []messages.DriftedObject }
	// DriftCleared: helm wrote the release, nothing drifts any more; the
	// actor logs it.
	DriftCleared struct{ Objects []string }
	// DriftCounted is how many objects drift now, for the metric.
	DriftCounted struct{ Objects int }
	// StartFailed: the hooks could not be configured, the module is left
	// out; the actor logs and counts it.
	StartFailed struct{ Err error }
	// Ready tells the operator the module has started (Err: it failed to;
	// no Err after a failure: it has now).
	Ready struct{ Err string }
	// ArmReconfigure arms the retry of the hooks' configuration after the
	// retry policy's delay for this failure (Attempt counts from 1).
	ArmReconfigure struct{ Attempt int }
	// Reconfigure asks the worker to configure the hooks again.
	Reconfigure struct{}
	// Recovered: the hooks are configured after Failures failures; the
	// actor logs it and clears the failure's metric.
	Recovered struct{ Failures int }
	// TaskDropped answers a task of a module that failed to start: it is
	// dropped, not failed (its retry could never succeed).
	TaskDropped struct {
		To   *actor.PID
		Task messages.Task
		Err  error
	}
	// RunEnabledScript runs the enabled script with the values given
	// (EnabledScriptDone follows).
	RunEnabledScript struct{ Values, ConfigValues []byte }
	// EnabledReply answers discovery.
	EnabledReply struct {
		To      *actor.PID
		Checked messages.EnabledChecked
	}
	// Forget removes the module's published state and metrics: the failed
	// start's and maintenance's when set, its webhooks' with Webhooks.
	Forget struct{ StartFailed, InMaintenance, Webhooks bool }
	// TaskStatus shows what the running task waits for in the queue.
	TaskStatus struct{ Progress messages.TaskProgress }
)

func (HookEffect) moduleEffect()         {}
func (RunHelm) moduleEffect()            {}
func (CheckRelease) moduleEffect()       {}
func (Uninstall) moduleEffect()          {}
func (Watch) moduleEffect()              {}
func (Reply) moduleEffect()              {}
func (Publish) moduleEffect()            {}
func (ConfigReply) moduleEffect()        {}
func (CheckReply) moduleEffect()         {}
func (Observed) moduleEffect()           {}
func (DestructiveDone) moduleEffect()    {}
func (HelmUpgraded) moduleEffect()       {}
func (Uninstalled) moduleEffect()        {}
func (TaskFailed) moduleEffect()         {}
func (HookFailureAllowed) moduleEffect() {}
func (ArmCheck) moduleEffect()           {}
func (Enqueue) moduleEffect()            {}
func (MaintenanceSet) moduleEffect()     {}
func (HelmSkipped) moduleEffect()        {}
func (ApplyCRDs) moduleEffect()          {}
func (RegisterWebhooks) moduleEffect()   {}
func (UnregisterWebhooks) moduleEffect() {}
func (WebhooksSynced) moduleEffect()     {}
func (CheckObjects) moduleEffect()       {}
func (CheckFailed) moduleEffect()        {}
func (AbsentFound) moduleEffect()        {}
func (DriftJudged) moduleEffect()        {}
func (RestoreDrift) moduleEffect()       {}
func (DriftCleared) moduleEffect()       {}
func (DriftCounted) moduleEffect()       {}
func (StartFailed) moduleEffect()        {}
func (ArmReconfigure) moduleEffect()     {}
func (Reconfigure) moduleEffect()        {}
func (Recovered) moduleEffect()          {}
func (DeleteFailed) moduleEffect()       {}
func (Ready) moduleEffect()              {}
func (TaskDropped) moduleEffect()        {}
func (RunEnabledScript) moduleEffect()   {}
func (EnabledReply) moduleEffect()       {}
func (Forget) moduleEffect()             {}
func (TaskStatus) moduleEffect()         {}
