package queue

import (
	"slices"
	"sort"
	"time"

	"github.com/addon-actors/addon-operator/hook/bindings"
	"github.com/addon-actors/addon-operator/messages"
)

// Queues is the pure state of all queues.
type Queues struct {
	lines  map[string]*line
	nextID uint64
	// replaced are the tasks that replaced a retry since TakeReplaced.
	replaced []messages.Task
	// superseded are the converge graphs a reload dropped, by task ID.
	superseded map[uint64]bool
	// bound is every line's contextBound (SetContextBound).
	bound contextBound
}

// line is one queue. Its head is running when running is set, and waits
// for a retry when retrying is set. A failed run of a converge's graph
// (Task.Group) steps aside instead: it keeps its place, waits for its
// retry in backoff, and the tasks behind it run meanwhile.
type line struct {
	// bound limits the binding context bytes of one waiting run (0: none).
	bound contextBound
	// merged: a run passed the bound and merged by object since the
	// last TakeMergedByObject; mergingID is the last such run.
	merged    bool
	mergingID uint64
	tasks     []messages.Task
	running   bool
	retrying  bool
	backoff   map[uint64]bool
}

// NewQueues returns empty queues, the named ones already there.
func NewQueues(names ...string) *Queues {
	q := &Queues{lines: map[string]*line{}, bound: contextBound{max: DefaultContextBound}}
	for _, name := range names {
		q.line(name)
	}
	return q
}

func (q *Queues) line(name string) *line {
	l, ok := q.lines[name]
	if !ok {
		l = &line{bound: q.bound}
		q.lines[name] = l
	}
	return l
}

// prepare numbers a new task and stamps it.
func (q *Queues) prepare(t messages.Task, now time.Time) messages.Task {
	q.nextID++
	t.ID, t.Queue, t.QueuedAt = q.nextID, bindings.QueueName(t.Queue), now
	t.Attempts, t.LastError, t.NextRetry, t.Running = 0, "", time.Time{}, false
	return t
}

// Append adds t at the end of its queue, unless a waiting task with the
// same MergeKey is already there. A module run replaces a run of its
// module that waits for a retry (Replace). It returns the queue's name.
func (q *Queues) Append(t messages.Task, now time.Time) string {
	if name, ok := q.Replace(t, now); ok {
		return name
	}
	t = q.prepare(t, now)
	l := q.line(t.Queue)
	l.tasks = append(l.tasks, t)
	l.dedupe()
	return t.Queue
}

// InsertNext puts tasks right after the head of their queues, in order
// (before the head when the queue is idle, which only happens for a head
// that just finished and was popped). Merged duplicates further back are
// dropped: the earliest position wins.
func (q *Queues) InsertNext(tasks []messages.Task, now time.Time) []string {
	var touched []string
	at := map[string]int{}
	for _, t := range tasks {
		t = q.prepare(t, now)
		l := q.line(t.Queue)
		pos, ok := at[t.Queue]
		if !ok {
			pos = l.firstWaiting()
		}
		l.tasks = slices.Insert(l.tasks, pos, t)
		at[t.Queue] = pos + 1
		touched = appendOnce(touched, t.Queue)
	}
	for _, name := range touched {
		q.lines[name].dedupe()
	}
	return touched
}

// firstWaiting is the index of the first task that is not running.
func (l *line) firstWaiting() int {
	if l.running || l.retrying {
		return 1
	}
	return 0
}

// runnable is the index of the first task that may run: the head, or for
// a line whose head steps aside, the first task not in backoff.
func (l *line) runnable() (int, bool) {
	if l.running || l.retrying {
		return 0, false
	}
	for i, t := range l.tasks {
		if !l.backoff[t.ID] {
			return i, true
		}
	}
	return 0, false
}

// dedupe keeps the first waiting task of each MergeKey (forced when one
// it absorbs is); a compacting task's binding contexts are appended to the
// one it merges into.
func (l *line) dedupe() {
	seen := map[string]int{}
	out := l.tasks[:0]
	for i, t := range l.tasks {
		busy := i == 0 && (l.running || l.retrying) || l.backoff[t.ID]
		if t.MergeKey != "" && !busy {
			if at, ok := seen[t.MergeKey]; ok {
				out[at].Force = out[at].Force || t.Force // a reconcile asked is not lost in the merge
				if t.Compact && l.bound.merge(&out[at], t) {
					l.noteMerged(out[at].ID)
				}
				continue
			}
			seen[t.MergeKey] = len(out)
		}
		out = append(out, t)
	}
	clear(l.tasks[len(out):])
	l.tasks = out
}

func appendOnce(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// Next returns the head of an idle queue and marks it running; tasks in
// backoff are passed over (the task that runs becomes the head).
func (q *Queues) Next(name string) (messages.Task, bool) {
	l := q.lines[name]
	if l == nil {
		return messages.Task{}, false
	}
	i, ok := l.runnable()
	if !ok {
		return messages.Task{}, false
	}
	if i > 0 {
		t := l.tasks[i]
		l.tasks = slices.Insert(slices.Delete(l.tasks, i, i+1), 0, t)
	}
	l.running = true
	l.tasks[0].Running = true
	return l.tasks[0], true
}

// Running returns the task running at the head of a queue.
func (q *Queues) Running(name string) (messages.Task, bool) {
	l := q.lines[name]
	if l == nil || !l.running {
		return messages.Task{}, false
	}
	return l.tasks[0], true
}

// SetStatus sets what the running head with the given ID is doing; false
// when it is not running (a late TaskProgress).
func (q *Queues) SetStatus(name string, id uint64, status string, since time.Time) bool {
	l := q.lines[name]
	if l == nil || !l.running || l.tasks[0].ID != id {
		return false
	}
	l.tasks[0].Status, l.tasks[0].StatusSince = status, since
	if status == "" {
		l.tasks[0].StatusSince = time.Time{}
	}
	return true
}

// Finish pops the running head with the given ID.
func (q *Queues) Finish(name string, id uint64) (messages.Task, bool) {
	l := q.lines[name]
	if l == nil || !l.running || l.tasks[0].ID != id {
		return messages.Task{}, false
	}
	t := l.tasks[0]
	l.tasks = slices.Delete(l.tasks, 0, 1)
	l.running = false
	return t, true
}

// Fail keeps the running head for a retry at next and returns it updated:
// at the head, holding its queue, or in backoff when it is a run of a
// converge's graph (Task.Group), which lets the tasks behind it run.
func (q *Queues) Fail(name string, id uint64, err string, next time.Time) (messages.Task, bool) {
	l := q.lines[name]
	if l == nil || !l.running || l.tasks[0].ID != id {
		return messages.Task{}, false
	}
	h := &l.tasks[0]
	h.Attempts++
	h.LastError, h.NextRetry, h.Running = err, next, false
	h.Status, h.StatusSince = "", time.Time{}
	l.running = false
	if h.Group != 0 {
		if l.backoff == nil {
			l.backoff = map[uint64]bool{}
		}
		l.backoff[id] = true
	} else {
		l.retrying = true
	}
	return *h, true
}

// RetryDue ends the wait of a queue's task with the given ID.
func (q *Queues) RetryDue(name string, id uint64) bool {
	l := q.lines[name]
	switch {
	case l == nil:
		return false
	case l.backoff[id]:
		delete(l.backoff, id)
		return true
	case !l.retrying || l.tasks[0].ID != id:
		return false
	}
	l.retrying = false
	return true
}

// Empty reports whether no queue holds a task (running, waiting or
// retrying).
func (q *Queues) Empty() bool {
	for _, l := range q.lines {
		if len(l.tasks) > 0 {
			return false
		}
	}
	return true
}

// Names lists the queues, main first, then by name.
func (q *Queues) Names() []string {
	names := make([]string, 0, len(q.lines))
	for name := range q.lines {
		names = append(names, name)
	}
	sort.Slice(names, func(i, j int) bool {
		if (names[i] == messages.MainQueue) != (names[j] == messages.MainQueue) {
			return names[i] == messages.MainQueue
		}
		return names[i] < names[j]
	})
	return names
}

// Snapshot copies every queue, head first.
func (q *Queues) Snapshot(now time.Time) messages.QueueSnapshot {
	snap := messages.QueueSnapshot{At: now}
	for _, name := range q.Names() {
		tasks := slices.Clone(q.lines[name].tasks)
		for i := range tasks {
			// A waiting run's contexts grow in place (appendContexts):
			// the published view, read by other goroutines, holds none.
			tasks[i].Context = nil
		}
		snap.Queues = append(snap.Queues, messages.QueueState{Name: name, Tasks: tasks})
	}
	return snap
}
