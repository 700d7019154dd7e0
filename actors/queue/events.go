package queue

import (
	"time"

	"github.com/addon-actors/addon-operator/messages"
)

// Env is what the shell reads for each Step: the clock's time.
type Env struct {
	Now time.Time
}

// Event is an input of the queue's core: one of the types below, each
// what the actor makes of one message.
type Event interface{ queueEvent() }

// Events of the queue's core.
type (
	// Started: the actor is started; the empty queues are published.
	Started struct{}
	// Enqueued are tasks to queue at the end of their queues (Enqueue).
	Enqueued struct{ Tasks []messages.Task }
	// HoldSet holds the runs of hook events back, or releases them
	// (HoldEvents).
	HoldSet struct{ Hold bool }
	// Finished is an owner's answer for the task it ran (TaskDone).
	Finished struct{ Done messages.TaskDone }
	// Progressed is what a running task is doing now (TaskProgress).
	Progressed struct{ Progress messages.TaskProgress }
	// RetryDue is delivered by the clock when a failed task may run again
	// (ArmRetry); the actor hands it to the core as it comes.
	RetryDue struct {
		Queue string
		ID    uint64
	}
	// OwnerLost: the actor with this PID id is gone (stopped) or lost
	// the task it was running (restarted after a panic: Retry). Why is the
	// error its tasks fail with.
	OwnerLost struct {
		ID    string
		Why   string
		Retry bool
	}
)

func (Started) queueEvent()    {}
func (Enqueued) queueEvent()   {}
func (HoldSet) queueEvent()    {}
func (Finished) queueEvent()   {}
func (Progressed) queueEvent() {}
func (RetryDue) queueEvent()   {}
func (OwnerLost) queueEvent()  {}
