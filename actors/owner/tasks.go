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
