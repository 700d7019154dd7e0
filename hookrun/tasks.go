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

// Admission is what an owner does with a task it is given (Tasks.Offer).
type Admission int

const (
	// Start: nothing runs, the task starts now.
	Start Admission = iota
	// Wait: another task runs; this one waits its turn.
	Wait
	// Refuse: the owner fails the task at once (the queue retries it).
	Refuse
)

// Tasks is the owner's side of "one task at a time": a queue runs one
// task per queue (actors/queue), and an owner runs one task per Tasks,
// the others waiting here in arrival order. A module has one Tasks for all
// queues; the global actor one per queue (PerQueue), so that its queues
// run concurrently.
type Tasks struct {
	// PerQueue: the Tasks serves one queue, which gives one task at a
	// time, so a second task while one is held is a confused queue's: it
	// is refused rather than kept waiting.
	PerQueue bool
	current  *Assigned
	waiting  []Assigned
}

// Offer takes a task, unless it is refused, and says what to do with it.
func (t *Tasks) Offer(a Assigned) Admission {
	switch {
	case t.current != nil && t.PerQueue:
		return Refuse
	case t.current != nil:
		t.waiting = append(t.waiting, a)
		return Wait
	}
	t.current = &a
	return Start
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

// Refused is the reply to a refused task; who names the owner.
func Refused(t messages.Task, who string) messages.TaskDone {
	return messages.TaskDone{ID: t.ID, Queue: t.Queue, Err: who + " is still running a task of this queue"}
}
