package queue

import (
	"fmt"
	"slices"
	"time"

	"github.com/addon-actors/addon-operator/messages"
)

// A change that concerns a module whose run is failing takes effect now
// (DESIGN §4): two rules of the queues, decided here without I/O.
//
//   - Replace: a module run queued while a run of the same module waits for
//     its retry takes that run's place and runs at once, with the backoff
//     started again (its module's section or values changed: the run is
//     made with the new values).
//   - Supersede: a "reload all modules" queued in main while main is held
//     by a failing converge (a module run at its head waiting for a retry,
//     or a converge graph with a run in backoff) drops that converge (the
//     failing run, the graph's waiting runs, and what the discovery queued
//     after them in main) and runs at once: its discovery decides again
//     what runs and what is deleted.

// Replace puts t in the place of a module run of the same module that
// waits for its retry, in any queue, and reports the queue. The place
// keeps its queue and group; the run is a new task (a retry planned for
// the old one finds nothing).
func (q *Queues) Replace(t messages.Task, now time.Time) (string, bool) {
	if t.Kind != messages.TaskModuleRun || t.MergeKey == "" {
		return "", false
	}
	for _, name := range q.Names() {
		l := q.lines[name]
		for i, old := range l.tasks {
			if old.MergeKey != t.MergeKey || !l.waitsForRetry(i) {
				continue
			}
			t.Queue, t.Group = old.Queue, old.Group
			t = q.prepare(t, now)
			t.Supersedes = fmt.Sprintf("replaces the retry of %s (attempt %d failed: %s)", describe(old), old.Attempts, old.LastError)
			l.tasks[i] = t
			q.replaced = append(q.replaced, t)
			delete(l.backoff, old.ID)
			if i == 0 {
				l.retrying = false
			}
			return name, true
		}
	}
	return "", false
}

// TakeReplaced returns the tasks that replaced a retry since the last call.
func (q *Queues) TakeReplaced() []messages.Task {
	out := q.replaced
	q.replaced = nil
	return out
}

// waitsForRetry tells whether the i-th task waits for its retry.
func (l *line) waitsForRetry(i int) bool {
	return l.backoff[l.tasks[i].ID] || (i == 0 && l.retrying)
}

// Superseded is what a reload dropped: the tasks, and the converge graph
// among them (0 when none).
type Superseded struct {
	By      messages.Task
	Dropped []messages.Task
	Group   uint64
}

// Supersede applies the rule when main holds a waiting reload behind a
// failing converge: it drops the converge and puts the reload at the head.
func (q *Queues) Supersede() (Superseded, bool) {
	main := q.lines[messages.MainQueue]
	if main == nil || len(main.tasks) < 2 || !q.failingHead(main) {
		return Superseded{}, false
	}
	at := slices.IndexFunc(main.tasks[1:], func(t messages.Task) bool { return t.Kind == messages.TaskReloadAll })
	if at < 0 {
		return Superseded{}, false
	}
	head, reload := main.tasks[0], main.tasks[at+1]
	s := Superseded{Dropped: []messages.Task{head}}
	if head.Kind == messages.TaskParallelModuleRun {
		s.Group = head.ID
		if q.superseded == nil {
			q.superseded = map[uint64]bool{}
		}
		q.superseded[head.ID] = true
		s.Dropped = append(s.Dropped, q.dropGroup(head.ID)...)
	}
	kept := []messages.Task{}
	for _, t := range main.tasks[1:] {
		switch {
		case t.ID == reload.ID:
		case t.Converge:
			s.Dropped = append(s.Dropped, t)
		default:
			kept = append(kept, t)
		}
	}
	reload.Supersedes = "dropped the failing " + failingText(head, s.Dropped)
	s.By = reload
	main.tasks = append([]messages.Task{reload}, kept...)
	main.running, main.retrying = false, false
	delete(main.backoff, head.ID) // a stalled head steps aside
	return s, true
}

// failingHead tells whether main's head is a failing converge: a module
// run waiting for its retry or stalled, or a graph with a run in backoff.
func (q *Queues) failingHead(main *line) bool {
	head := main.tasks[0]
	switch head.Kind {
	case messages.TaskModuleRun:
		return main.retrying || head.Stalled
	case messages.TaskParallelModuleRun:
		return main.running && q.groupFailing(head.ID)
	}
	return false
}

func (q *Queues) groupFailing(group uint64) bool {
	for _, l := range q.lines {
		for _, t := range l.tasks {
			if t.Group == group && l.backoff[t.ID] {
				return true
			}
		}
	}
	return false
}

// dropGroup removes a graph's runs that are not running; a running one
// ends on its own (and is not retried: GroupSuperseded).
func (q *Queues) dropGroup(group uint64) []messages.Task {
	var dropped []messages.Task
	for _, l := range q.lines {
		kept := l.tasks[:0]
		for i, t := range l.tasks {
			if t.Group == group && !(i == 0 && l.running) {
				dropped = append(dropped, t)
				delete(l.backoff, t.ID)
				continue
			}
			kept = append(kept, t)
		}
		clear(l.tasks[len(kept):])
		l.tasks = kept
	}
	return dropped
}

// GroupSuperseded tells whether a reload dropped the converge graph with
// this task ID: a run of it that was running then is not retried.
func (q *Queues) GroupSuperseded(group uint64) bool {
	return q.superseded[group]
}

// failingText names the failing runs a reload dropped.
func failingText(head messages.Task, dropped []messages.Task) string {
	var failing []string
	for _, t := range dropped {
		if t.Attempts > 0 && t.Kind == messages.TaskModuleRun {
			failing = append(failing, fmt.Sprintf("%s (attempt %d failed: %s)", describe(t), t.Attempts, t.LastError))
		}
	}
	return fmt.Sprintf("%s with %d tasks: %v", describe(head), len(dropped), failing)
}
