package owner

import (
	"fmt"
	"time"

	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/values"
)

// Owner is what the global and module cores share as owners of hooks and
// values, written once: the owner's values scope, its hook runs (one per
// queue key: the global actor runs one per queue, a module one under the
// key ""), and the owner events (a config check, its ConfigMap section, a
// hook event, an event of a hook run). An owner's core composes it as raft
// composes its progress tracker: it hands it those events with an Env and
// takes back effects of a closed set, keeping RunCommitted and RunFinished
// (what a run's end means is the owner's to decide) and passing the others
// to its shell.
type Owner struct {
	name     string
	scope    values.Scope
	withKube bool
	paced    bool
	runs     map[string]*hookrun.Run
}

// Options builds an Owner.
type Options struct {
	// Name is the owner as tasks and replies name it: messages.OwnerGlobal
	// or messages.ModuleOwner(name).
	Name string
	// Scope is the owner's values from its values files; its ConfigMap
	// section arrives with SectionChanged.
	Scope values.Scope
	// WithKube: the owner has a kube actor to ask for snapshots; Paced: it
	// has a clock, so executionMinInterval applies (see hookrun.Run).
	WithKube, Paced bool
}

// New returns an Owner with no hook run in progress.
func New(o Options) *Owner {
	return &Owner{name: o.Name, scope: o.Scope, withKube: o.WithKube, paced: o.Paced, runs: map[string]*hookrun.Run{}}
}

// Scope is the owner's values scope as it is now.
func (o *Owner) Scope() values.Scope { return o.scope }

// Stage is where the hook run of a queue key is (hookrun.Idle when it has
// none).
func (o *Owner) Stage(queue string) hookrun.Stage {
	if r := o.runs[queue]; r != nil {
		return r.Stage
	}
	return hookrun.Idle
}

// Env is what the owner's core reads for each Step of its Owner.
type Env struct {
	Now time.Time
	// Task is the running task the event concerns (Running false: none):
	// for a HookRunEvent, its queue's; for a HookEventArrived, the task
	// whose watch may have sent a Synchronization (the global actor's
	// main queue's, a module's one task).
	Task    messages.Task
	Running bool
}

// Step applies ev and returns the effects.
func (o *Owner) Step(ev Event, env Env) []Effect {
	switch e := ev.(type) {
	case CheckAsked:
		return []Effect{CheckReply{Reply: hookrun.CheckSection(o.scope, o.name, e.Check)}}
	case SectionChanged:
		return o.sectionChanged(e.Section)
	case HookEventArrived:
		return []Effect{Enqueue{Tasks: []messages.Task{hookrun.EventTaskDuring(e.Event, env.Task, env.Running)}}}
	case HookRunEvent:
		return o.stepRun(e, env)
	default:
		panic(fmt.Sprintf("hookrun: owner event %T has no case in Owner.Step", ev))
	}
}

// sectionChanged takes the owner's ConfigMap section as its config layer;
// a section that fails validation is answered with its error and leaves
// the scope as it was. The echo of the owner's own config patch write
// equals the config layer already: it changes nothing.
func (o *Owner) sectionChanged(section any) []Effect {
	next, reply := hookrun.ApplySection(o.scope, o.name, section)
	if reply.Err != "" {
		return []Effect{ConfigReply{Reply: reply}}
	}
	o.scope = next
	return []Effect{Publish{Scope: next}, ConfigReply{Reply: reply}}
}

// stepRun feeds a queue's hook run (a hookrun.Begin starts one) and takes
// back what concerns the owner: the patches, committed to its scope at once
// (RunCommitted), and the run's end (RunFinished). The rest is for the
// shell, with the queue and the task it runs for.
func (o *Owner) stepRun(e HookRunEvent, env Env) []Effect {
	r, ok := o.runs[e.Queue]
	if !ok {
		if _, begins := e.Event.(hookrun.Begin); !begins {
			return nil
		}
		r = &hookrun.Run{WithKube: o.withKube, Paced: o.paced}
		o.runs[e.Queue] = r
	}
	var out []Effect
	for _, eff := range r.Step(e.Event, hookrun.Env{Now: env.Now, Scope: o.scope}) {
		switch eff := eff.(type) {
		case hookrun.Committed:
			o.scope = eff.Scope
			out = append(out, RunCommitted{Queue: e.Queue, ValuesChanged: eff.ValuesChanged})
		case hookrun.Finished:
			out = append(out, RunFinished{Queue: e.Queue, Err: eff.Err})
		case hookrun.GetSnapshots, hookrun.ArmTimer, hookrun.RunHook, hookrun.Ran, hookrun.WriteConfigPatch:
			out = append(out, InRun{Queue: e.Queue, Task: env.Task, Effect: eff})
		default:
			panic(fmt.Sprintf("hookrun: hook run effect %T has no case in Owner.stepRun", eff))
		}
	}
	return out
}
