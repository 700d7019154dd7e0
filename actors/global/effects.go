package global

import (
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/hook/bctx"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/messages"
)

// Env is what the shell reads for each Step.
type Env struct{ Now time.Time }

// Event is an input of the global core.
type Event interface{ globalEvent() }

// Events of the global core; those of a hook run name their queue.
type (
	TaskAssigned  struct{ Assigned hookrun.Assigned }
	HookFinished  struct{ Result worker.HookResult }
	SnapshotsRead struct {
		Queue     string
		Snapshots bctx.Snapshots
	}
	ConfigWritten struct{ Queue, Err string }
	TokenArrived  struct{ Queue string }
	// SyncEnded: the GlobalSynchronization wait answers its task.
	SyncEnded struct {
		Queue string
		Done  messages.TaskDone
	}
	SectionChanged   struct{ Section any }
	HookEventArrived struct{ Event messages.HookEvent }
)

func (TaskAssigned) globalEvent()     {}
func (HookFinished) globalEvent()     {}
func (SnapshotsRead) globalEvent()    {}
func (ConfigWritten) globalEvent()    {}
func (TokenArrived) globalEvent()     {}
func (SyncEnded) globalEvent()        {}
func (SectionChanged) globalEvent()   {}
func (HookEventArrived) globalEvent() {}

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
	Enqueue     struct{ Tasks []messages.Task }
	// StartSync starts the GlobalSynchronization task of a queue.
	StartSync struct{ Queue string }
	// TaskEnded tells the GlobalSynchronization wait a task ended.
	TaskEnded struct{ Task messages.Task }
	// EnsureWorker spawns the queue's worker if it has none: before the
	// task's first step, so that no worker is spawned once the actor
	// stops (it would never be stopped).
	EnsureWorker struct{ Queue string }
)

func (InQueue) globalEffect()      {}
func (Reply) globalEffect()        {}
func (Publish) globalEffect()      {}
func (ConfigReply) globalEffect()  {}
func (Enqueue) globalEffect()      {}
func (StartSync) globalEffect()    {}
func (TaskEnded) globalEffect()    {}
func (EnsureWorker) globalEffect() {}
