package operator

import (
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/actors/step"
	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/messages"
)

// Effect is an output of the operator's core: one of the types below, a
// closed set the lifecycle's apply covers case by case.
type Effect interface{ operatorEffect() }

// Log is a record for the operator's logger (step.Log), built with
// Log(step.At(...)).
type Log step.Log

// Effects of the operator's core.
type (
	// Fatal: start-up cannot go on; the process should exit (told once).
	Fatal struct{ Err error }
	// TellReaders tells the config actor which module actors (of Modules)
	// read which section.
	TellReaders struct{ Modules []layout.Definition }
	// ApplyGlobalConfig hands the global actor its section.
	ApplyGlobalConfig struct{ Section any }
	// Enqueue queues tasks.
	Enqueue struct{ Tasks []messages.Task }
	// FinishTask answers the queue that runs the operator's task.
	FinishTask struct {
		To   *actor.PID
		Done messages.TaskDone
	}
	// CheckEnabled asks a module actor for its enabled script's answer
	// (EnabledAnswered follows).
	CheckEnabled struct {
		Module        string
		EnabledBefore []string
	}
	// ScanModules reads the modules dirs again (ModulesScanned follows);
	// Known are the dirs of the modules running now.
	ScanModules struct{ Known map[string]string }
	// ListReleases lists the releases (ReleasesListed follows).
	ListReleases struct{}
	// DeleteRelease uninstalls a release (ReleaseDeleted follows).
	DeleteRelease struct{ Name string }
	// ModuleOut: a module does not go on as it was (How): discovery
	// disabled it, its dir is gone (its actor stops; its release is purged
	// by the discovery), or its actor stopped unexpectedly (shown failed,
	// with Why).
	ModuleOut struct {
		Name string
		How  Out
		Why  string
	}
	// SpawnModules starts the actors of modules whose dir appeared
	// (ModulesSpawned follows).
	SpawnModules struct{ Defs []layout.Definition }
	// HoldEvents tells the queue to hold (or release) the runs of events.
	HoldEvents struct{ Hold bool }
	// Count counts one of the operator's counters; a purge with its
	// release and why it was purged.
	Count struct {
		Metric         Metric
		Release, Cause string
	}
	// Discovered: a discovery decided; All are the modules, Enabled the
	// enabled ones in run order, Unmet those unmet requirements disabled,
	// Decisions how it decided every module (published for `module why`).
	Discovered struct {
		All, Enabled []string
		Unmet        map[string][]string
		Decisions    map[string]board.EnabledDecision
	}
	// PublishEnabled publishes the enabled modules, in run order.
	PublishEnabled struct{ Enabled []string }
	// PublishUnseen publishes the modules whose dir cannot be seen.
	PublishUnseen struct{ Unseen map[string]string }
	// PublishConverge publishes what the converge waits for.
	PublishConverge struct{ State board.ConvergeState }
	// MarkReady: the first converge is done.
	MarkReady struct{}
	// Converged is a finished converge: its duration and what started it.
	Converged struct {
		Took       time.Duration
		Activation messages.Activation
	}
)

// Out is how a module does not go on as it was (ModuleOut).
type Out int

// How modules go out.
const (
	// OutDisabled: discovery disabled it; its actor is told
	// (messages.ModuleDisabled) and runs its delete.
	OutDisabled Out = iota + 1
	// OutRemoved: its dir is gone; its actor is told (messages.ModuleRemoved)
	// and stopped.
	OutRemoved
	// OutStopped: its actor stopped unexpectedly; the board shows it
	// failed.
	OutStopped
)

// Metric is a counter of the operator (Count).
type Metric int

// The operator's counters.
const (
	// MetricDiscoverErrors: a failed discovery or a refused modules set
	// (modules_discover_errors_total).
	MetricDiscoverErrors Metric = iota + 1
	// MetricConfigErrors: a rejected section (config_values_errors_total).
	MetricConfigErrors
	// MetricPurges: a purge of a release (worker.ActionPurge through
	// LifecycleOptions.Destructive), with its release and cause.
	MetricPurges
)

func (ModuleOut) operatorEffect()         {}
func (Count) operatorEffect()             {}
func (Log) operatorEffect()               {}
func (Fatal) operatorEffect()             {}
func (TellReaders) operatorEffect()       {}
func (ApplyGlobalConfig) operatorEffect() {}
func (Enqueue) operatorEffect()           {}
func (FinishTask) operatorEffect()        {}
func (CheckEnabled) operatorEffect()      {}
func (ScanModules) operatorEffect()       {}
func (ListReleases) operatorEffect()      {}
func (DeleteRelease) operatorEffect()     {}
func (SpawnModules) operatorEffect()      {}
func (HoldEvents) operatorEffect()        {}
func (Discovered) operatorEffect()        {}
func (PublishEnabled) operatorEffect()    {}
func (PublishUnseen) operatorEffect()     {}
func (PublishConverge) operatorEffect()   {}
func (MarkReady) operatorEffect()         {}
func (Converged) operatorEffect()         {}
