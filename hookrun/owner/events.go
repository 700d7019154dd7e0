package owner

import (
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/values"
)

// Event is an input of an Owner's Step.
type Event interface{ ownerEvent() }

// The owner events, the same for the global actor and a module.
type (
	// CheckAsked is the config actor's question whether the owner's
	// section of a ConfigMap change would be taken (CheckConfig).
	CheckAsked struct{ Check messages.CheckConfig }
	// SectionChanged is the owner's ConfigMap section (ApplyConfig).
	SectionChanged struct{ Section any }
	// HookEventArrived is an event source's event for one of the owner's
	// hooks: a Kubernetes event, a schedule tick, a Synchronization queued
	// in a named queue.
	HookEventArrived struct{ Event messages.HookEvent }
	// HookRunEvent is an event of the hook run of a queue key: hookrun.Begin, the
	// worker's result, the snapshots or the config write it asked for, its
	// rate limit's token.
	HookRunEvent struct {
		Queue string
		Event hookrun.Event
	}
)

func (CheckAsked) ownerEvent()       {}
func (SectionChanged) ownerEvent()   {}
func (HookEventArrived) ownerEvent() {}
func (HookRunEvent) ownerEvent()     {}

// Effect is an output of an Owner's Step.
type Effect interface{ ownerEffect() }

// The owner effects. The owner's core keeps RunCommitted and RunFinished;
// its shell carries out the others.
type (
	// CheckReply answers CheckConfig.
	CheckReply struct{ Reply messages.ConfigChecked }
	// ConfigReply answers ApplyConfig (Reply.Err: the section was
	// rejected, the previous one stays).
	ConfigReply struct{ Reply messages.ConfigApplied }
	// Publish publishes the owner's scope (changed).
	Publish struct{ Scope values.Scope }
	// Enqueue sends tasks to the queue actor.
	Enqueue struct{ Tasks []messages.Task }
	// InRun is a hook run's effect for the shell (hookrun.GetSnapshots, hookrun.ArmTimer,
	// hookrun.RunHook, hookrun.Ran, hookrun.WriteConfigPatch), carried out with its queue key as
	// the tag of what it asks and the task it runs for (the run's log
	// names it).
	InRun struct {
		Queue  string
		Task   messages.Task
		Effect hookrun.Effect
	}
	// RunCommitted: the run's patches are in the owner's scope now.
	RunCommitted struct {
		Queue string
		// ValuesChanged: values or dynamic enabled flags changed.
		ValuesChanged bool
	}
	// RunFinished ends the run of a queue key; Err is nil on success.
	RunFinished struct {
		Queue string
		Err   error
	}
)

func (CheckReply) ownerEffect()   {}
func (ConfigReply) ownerEffect()  {}
func (Publish) ownerEffect()      {}
func (Enqueue) ownerEffect()      {}
func (InRun) ownerEffect()        {}
func (RunCommitted) ownerEffect() {}
func (RunFinished) ownerEffect()  {}
