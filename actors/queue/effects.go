package queue

import (
	"time"

	"github.com/addon-actors/addon-operator/actors/step"
	"github.com/addon-actors/addon-operator/messages"
)

// Effect is an output of the queue's core: one of the types below, a
// closed set the actor's apply covers case by case.
type Effect interface{ queueEffect() }

// Log is a record for the queue's logger (step.Log), built with
// Log(step.At(...)).
type Log step.Log

// Effects of the queue's core.
type (
	// Run asks the task's owner to run it (RunTask), watching the owner
	// so that its stop is known.
	Run struct{ Task messages.Task }
	// Unwatch: the owner runs no task of any queue any more.
	Unwatch struct{ Owner string }
	// ArmRetry asks the clock for Due after Delay.
	ArmRetry struct {
		Due   RetryDue
		Delay time.Duration
	}
	// Publish hands out a snapshot of the queues (Step fills it in, as the
	// event leaves them).
	Publish struct{ Snapshot messages.QueueSnapshot }
	// TellDropped tells Options.Dropped of a task dropped after a failure.
	TellDropped struct {
		Task messages.Task
		Err  string
	}
	// ReportGroup tells the operator how a run of a converge graph ended.
	ReportGroup struct{ Report messages.GroupRunReport }
	// TellSuperseded tells the operator a reload dropped a failing
	// converge.
	TellSuperseded struct{ Msg messages.ConvergeSuperseded }
)

func (Run) queueEffect()            {}
func (Unwatch) queueEffect()        {}
func (ArmRetry) queueEffect()       {}
func (Publish) queueEffect()        {}
func (Log) queueEffect()            {}
func (TellDropped) queueEffect()    {}
func (ReportGroup) queueEffect()    {}
func (TellSuperseded) queueEffect() {}
