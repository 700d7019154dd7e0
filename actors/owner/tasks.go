package owner

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/messages"
)

// Assigned is a task an owner was asked to run, with the queue to answer.
type Assigned struct {
	Task  messages.Task
	Queue *actor.PID
}

// Tasks makes an owner run one task at a time: tasks from several queues
// (main and named) wait here, in arrival order, while one runs.
type Tasks struct {
	current *Assigned
	waiting []Assigned
}

// Offer takes a task; it reports whether the owner should start it now.
func (t *Tasks) Offer(a Assigned) bool {
	if t.current != nil {
		t.waiting = append(t.waiting, a)
		return false
	}
	t.current = &a
	return true
}

// Current returns the running task.
func (t *Tasks) Current() (Assigned, bool) {
	if t.current == nil {
		return Assigned{}, false
	}
	return *t.current, true
}

// Finish answers the running task's queue and returns the next task to
// start, if one waits.
func (t *Tasks) Finish(ctx actor.Context, done messages.TaskDone) (Assigned, bool) {
	if t.current == nil {
		return Assigned{}, false
	}
	done.ID, done.Queue = t.current.Task.ID, t.current.Task.Queue
	ctx.Send(t.current.Queue, done)
	t.current = nil
	if len(t.waiting) == 0 {
		return Assigned{}, false
	}
	next := t.waiting[0]
	t.waiting = t.waiting[1:]
	t.current = &next
	return next, true
}

// Len is how many tasks the owner holds, the running one included.
func (t *Tasks) Len() int {
	n := len(t.waiting)
	if t.current != nil {
		n++
	}
	return n
}

// Siblings names the operator's other children for an owner: explicit PIDs
// from its options, else the siblings under its parent.
type Siblings struct {
	Report *actor.PID // OwnerReady and the like; nil: the parent
	Config *actor.PID // the config actor; nil: sibling "config"
	Queue  *actor.PID // the queue actor; nil: sibling "queue"
	// Schedule and Kube receive the owner's schedule and kubernetes
	// bindings; nil: siblings "schedule" and "kube".
	Schedule *actor.PID
	Kube     *actor.PID
}

// Resolve fills the unset PIDs from ctx's parent.
func (s Siblings) Resolve(ctx actor.Context) Siblings {
	parent := ctx.Parent()
	sibling := func(name string) *actor.PID {
		if parent == nil {
			return nil
		}
		return actor.NewPID(parent.Address, parent.Id+"/"+name)
	}
	if s.Report == nil {
		s.Report = parent
	}
	if s.Config == nil {
		s.Config = sibling("config")
	}
	if s.Queue == nil {
		s.Queue = sibling("queue")
	}
	if s.Schedule == nil {
		s.Schedule = sibling("schedule")
	}
	if s.Kube == nil {
		s.Kube = sibling("kube")
	}
	return s
}
