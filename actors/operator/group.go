package operator

import (
	"github.com/addon-actors/addon-operator/messages"
)

// groupRun is a weight group in flight: the module runs of one
// ParallelModuleRun, at most one per parallel queue at a time. It is pure:
// the operator enqueues the tasks it returns and replies TaskDone to main
// when it reports the group finished.
type groupRun struct {
	id      uint64   // the ParallelModuleRun's task ID, stamped on its runs
	reason  string   // the converge's reason, given to its runs
	waiting []string // modules not queued yet, in module order
	// running maps a queued module to its parallel queue; it stays there
	// through failures and re-runs until its run has succeeded.
	running  map[string]string
	free     []string // parallel queues without a module of the group
	done     []string // modules whose run has succeeded, in that order
	failures map[string]int
	lastErr  map[string]string
}

// newGroupRun takes the group's modules and the parallel queues' count.
func newGroupRun(id uint64, reason string, modules []string, queues int) *groupRun {
	g := &groupRun{id: id, reason: reason, waiting: append([]string(nil), modules...),
		running: map[string]string{}, failures: map[string]int{}, lastErr: map[string]string{}}
	for k := range max(queues, 1) {
		g.free = append(g.free, messages.ParallelQueue(k))
	}
	return g
}

// start returns the first module runs: one per parallel queue.
func (g *groupRun) start() []messages.Task {
	return g.fill()
}

// fill queues waiting modules into the free parallel queues.
func (g *groupRun) fill() []messages.Task {
	var out []messages.Task
	for len(g.waiting) > 0 && len(g.free) > 0 {
		module, queue := g.waiting[0], g.free[0]
		g.waiting, g.free = g.waiting[1:], g.free[1:]
		g.running[module] = queue
		t := messages.NewModuleRun(module, g.reason)
		t.Queue, t.Group = queue, g.id
		out = append(out, t)
	}
	return out
}

// report takes the queue's report of one of the group's runs: the runs to
// queue next, and whether the whole group has finished.
func (g *groupRun) report(r messages.GroupRunReport) (next []messages.Task, finished bool) {
	if r.Group != g.id || g.running[r.Module] != r.Queue {
		return nil, false
	}
	switch r.Outcome {
	case messages.GroupRunFailed:
		g.failures[r.Module]++
		g.lastErr[r.Module] = r.Err
	case messages.GroupRunSucceeded, messages.GroupRunDropped:
		delete(g.running, r.Module)
		g.free = append(g.free, r.Queue)
		g.done = append(g.done, r.Module)
		next = g.fill()
	}
	return next, g.finished()
}

// finished reports whether every module of the group has succeeded (or
// was dropped because its actor is gone).
func (g *groupRun) finished() bool {
	return len(g.waiting) == 0 && len(g.running) == 0
}
