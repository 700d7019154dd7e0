package operator

import (
	"slices"

	"github.com/addon-actors/addon-operator/messages"
)

// runGraph is a converge's module runs in flight as a graph: a module's
// run is queued once every module it waits for (runDeps) has succeeded in
// this converge, into a parallel queue that has no other run of the graph
// going. A run that fails steps aside in its queue while it waits for its
// retry (the queue's backoff), so it holds only the modules that wait for
// it. It is pure: the operator enqueues the tasks it returns and replies
// TaskDone to main when it reports the graph finished.
type runGraph struct {
	// of is the ParallelModuleRun: its ID is stamped on its runs, which
	// take its reason and activation.
	of     messages.Task
	order  []string
	deps   map[string][]string
	queues []string
	// queueOf maps a queued module to its parallel queue; it stays there
	// through failures and re-runs until its run has succeeded.
	queueOf map[string]string
	// going are the queued modules whose run has not failed since: each
	// holds its queue for the graph.
	going  map[string]bool
	done   []string // modules whose run has succeeded, in that order
	isDone map[string]bool
}

// newRunGraph takes the ParallelModuleRun (its modules in run order),
// what each module waits for, and the parallel queues' count.
func newRunGraph(of messages.Task, deps map[string][]string, queues int) *runGraph {
	g := &runGraph{of: of, order: slices.Clone(of.Modules), deps: deps,
		queueOf: map[string]string{}, going: map[string]bool{}, isDone: map[string]bool{}}
	for k := range max(queues, 1) {
		g.queues = append(g.queues, messages.ParallelQueue(k))
	}
	return g
}

// start returns the first module runs.
func (g *runGraph) start() []messages.Task {
	return g.fill()
}

// fill queues the modules that wait for nothing more, in run order, into
// the queues no run of the graph is going in.
func (g *runGraph) fill() []messages.Task {
	busy := map[string]bool{}
	for m := range g.going {
		busy[g.queueOf[m]] = true
	}
	var out []messages.Task
	for _, m := range g.order {
		if _, queued := g.queueOf[m]; queued || !g.ready(m) {
			continue
		}
		i := slices.IndexFunc(g.queues, func(q string) bool { return !busy[q] })
		if i < 0 {
			break
		}
		q := g.queues[i]
		busy[q], g.queueOf[m], g.going[m] = true, q, true
		t := messages.NewModuleRun(m, g.of.Reason)
		t.Queue, t.Group, t.Activation = q, g.of.ID, g.of.Activation
		out = append(out, t)
	}
	return out
}

func (g *runGraph) ready(m string) bool {
	for _, d := range g.deps[m] {
		if !g.isDone[d] {
			return false
		}
	}
	return true
}

// report takes the queue's report of one of the graph's runs: the runs to
// queue next, and whether the whole graph has finished.
func (g *runGraph) report(r messages.GroupRunReport) (next []messages.Task, finished bool) {
	if r.Group != g.of.ID || g.queueOf[r.Module] != r.Queue || g.isDone[r.Module] {
		return nil, false
	}
	switch r.Outcome {
	case messages.GroupRunFailed:
		delete(g.going, r.Module)
	case messages.GroupRunRequeued:
		g.going[r.Module] = true
		return nil, false
	case messages.GroupRunSucceeded, messages.GroupRunDropped:
		delete(g.going, r.Module)
		g.isDone[r.Module] = true
		g.done = append(g.done, r.Module)
	}
	return g.fill(), g.finished()
}

// finished reports whether every module of the graph has succeeded (or
// was dropped because its actor is gone).
func (g *runGraph) finished() bool {
	return len(g.done) == len(g.order)
}

// waits maps each module not queued yet to the modules it still waits for.
func (g *runGraph) waits() map[string][]string {
	out := map[string][]string{}
	for _, m := range g.order {
		if _, queued := g.queueOf[m]; queued {
			continue
		}
		for _, d := range g.deps[m] {
			if !g.isDone[d] {
				out[m] = append(out[m], d)
			}
		}
	}
	return out
}
