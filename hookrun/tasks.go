package hookrun

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

// Finish ends the running task: done, addressed to its queue, is the
// reply to send (ok false: no task was running); next is the task to
// start, if one waits (hasNext).
func (t *Tasks) Finish(done messages.TaskDone) (to *actor.PID, reply messages.TaskDone, ok bool, next Assigned, hasNext bool) {
	if t.current == nil {
		return nil, done, false, Assigned{}, false
	}
	done.ID, done.Queue = t.current.Task.ID, t.current.Task.Queue
	to = t.current.Queue
	t.current = nil
	if len(t.waiting) == 0 {
		return to, done, true, Assigned{}, false
	}
	next = t.waiting[0]
	t.waiting = t.waiting[1:]
	t.current = &next
	return to, done, true, next, true
}

// Len is how many tasks the owner holds, the running one included.
func (t *Tasks) Len() int {
	n := len(t.waiting)
	if t.current != nil {
		n++
	}
	return n
}
