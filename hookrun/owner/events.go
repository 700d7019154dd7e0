package owner

import (
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/values"
)

// Event is an input of an Owner's Step.
type Event interface{ ownerEvent() }

// The owner events, the same for the global actor and a module, follow.

// CheckAsked is the config actor's question whether the owner's
// section of a ConfigMap change would be taken (CheckConfig).
type CheckAsked struct{ Check messages.CheckConfig }

func (CheckAsked) ownerEvent() {}

// SectionChanged is the owner's ConfigMap section (ApplyConfig).
type SectionChanged struct{ Section any }

func (SectionChanged) ownerEvent() {}

// HookEventArrived is an event source's event for one of the owner's
// hooks: a Kubernetes event, a schedule tick, a Synchronization queued
// in a named queue.
type HookEventArrived struct{ Event messages.HookEvent }

func (HookEventArrived) ownerEvent() {}

// HookRunEvent is an event of the hook run of a queue key: hookrun.Begin,
// the worker's result, the snapshots or the config write it asked for, its
// rate limit's token.
type HookRunEvent struct {
	Queue string
	Event hookrun.Event
}

func (HookRunEvent) ownerEvent() {}

// Effect is an output of an Owner's Step.
type Effect interface{ ownerEffect() }

// The owner effects follow. The owner's core keeps RunCommitted and
// RunFinished; its shell carries out the others.

// CheckReply answers CheckConfig.
type CheckReply struct{ Reply messages.ConfigChecked }

func (CheckReply) ownerEffect() {}

// ConfigReply answers ApplyConfig (Reply.Err: the section was
// rejected, the previous one stays).
type ConfigReply struct{ Reply messages.ConfigApplied }

func (ConfigReply) ownerEffect() {}

// Publish publishes the owner's scope (changed).
type Publish struct{ Scope values.Scope }

func (Publish) ownerEffect() {}

// Enqueue sends tasks to the queue actor.
type Enqueue struct{ Tasks []messages.Task }

func (Enqueue) ownerEffect() {}

// InRun is a hook run's effect for the shell (hookrun.GetSnapshots,
// ArmTimer, RunHook, Ran, WriteConfigPatch), carried out with its queue
// key as the tag of what it asks and the task it runs for (the run's log
// names it).
type InRun struct {
	Queue  string
	Task   messages.Task
	Effect hookrun.Effect
}

func (InRun) ownerEffect() {}

// RunCommitted: the run's patches are in the owner's scope now.
type RunCommitted struct {
	Queue string
	// ValuesChanged: values or dynamic enabled flags changed.
	ValuesChanged bool
}

func (RunCommitted) ownerEffect() {}

// RunFinished ends the run of a queue key; Err is nil on success.
type RunFinished struct {
	Queue string
	Err   error
}

func (RunFinished) ownerEffect() {}
