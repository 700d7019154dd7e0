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
	// RemoveModule stops the actor of a module whose dir is gone.
	RemoveModule struct{ Name string }
	// SpawnModules starts the actors of modules whose dir appeared
	// (ModulesSpawned follows).
	SpawnModules struct{ Defs []layout.Definition }
	// DisableModule tells a module actor discovery disabled it.
	DisableModule struct{ Name string }
	// HoldEvents tells the queue to hold (or release) the runs of events.
	HoldEvents struct{ Hold bool }
	// CountDiscoverError counts a failed discovery or a refused modules
	// set (modules_discover_errors_total).
	CountDiscoverError struct{}
	// CountConfigError counts a rejected section
	// (config_values_errors_total).
	CountConfigError struct{}
	// Discovered: a discovery decided; All are the modules, Enabled the
	// enabled ones in run order, Unmet those unmet requirements disabled.
	Discovered struct {
		All, Enabled []string
		Unmet        map[string][]string
	}
	// PublishDecisions publishes how discovery decided every module.
	PublishDecisions struct {
		Decisions map[string]board.EnabledDecision
	}
	// PublishEnabled publishes the enabled modules, in run order.
	PublishEnabled struct{ Enabled []string }
	// PublishUnseen publishes the modules whose dir cannot be seen.
	PublishUnseen struct{ Unseen map[string]string }
	// PublishFailed shows a module failed on the board, with why.
	PublishFailed struct{ Module, Why string }
	// PublishConverge publishes what the converge waits for.
	PublishConverge struct{ State board.ConvergeState }
	// MarkReady: the first converge is done.
	MarkReady struct{}
	// Converged is a finished converge: its duration and what started it.
	Converged struct {
		Took       time.Duration
		Activation messages.Activation
	}
	// Purged counts a purge of a release (worker.ActionPurge), with its
	// cause.
	Purged struct{ Release, Cause string }
)

func (Log) operatorEffect()                {}
func (Fatal) operatorEffect()              {}
func (TellReaders) operatorEffect()        {}
func (ApplyGlobalConfig) operatorEffect()  {}
func (Enqueue) operatorEffect()            {}
func (FinishTask) operatorEffect()         {}
func (CheckEnabled) operatorEffect()       {}
func (ScanModules) operatorEffect()        {}
func (ListReleases) operatorEffect()       {}
func (DeleteRelease) operatorEffect()      {}
func (RemoveModule) operatorEffect()       {}
func (SpawnModules) operatorEffect()       {}
func (DisableModule) operatorEffect()      {}
func (HoldEvents) operatorEffect()         {}
func (CountDiscoverError) operatorEffect() {}
func (CountConfigError) operatorEffect()   {}
func (Discovered) operatorEffect()         {}
func (PublishDecisions) operatorEffect()   {}
func (PublishEnabled) operatorEffect()     {}
func (PublishUnseen) operatorEffect()      {}
func (PublishConverge) operatorEffect()    {}
func (PublishFailed) operatorEffect()      {}
func (MarkReady) operatorEffect()          {}
func (Converged) operatorEffect()          {}
func (Purged) operatorEffect()             {}

// Log is a record for the operator's logger (step.Log), built with
// Log(step.At(...)).
type Log step.Log
