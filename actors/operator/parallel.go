package operator

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/messages"
)

// startGroup runs a ParallelModuleRun: it queues the graph's first module
// runs into the parallel queues; main stays blocked on it until the
// graph has finished (handleGroupReport).
func (l *lifecycle) startGroup(ctx actor.Context, t messages.Task) {
	if len(t.Modules) == 0 {
		l.done(ctx, messages.TaskDone{})
		return
	}
	deps := runDeps(t.Modules, definitions(l.opts.Modules))
	l.group = newRunGraph(t.ID, t.Reason, t.Modules, deps, l.opts.ParallelModuleRuns)
	l.opts.Log.Info("module run graph started", "modules", len(t.Modules), "queues", len(l.group.queues))
	l.enqueue(ctx, l.group.start()...)
	l.publishConverge()
}

// handleGroupReport takes the queue's report of one module run of the
// graph in flight: it queues the next ones and ends the ParallelModuleRun
// once every module has succeeded.
func (l *lifecycle) handleGroupReport(ctx actor.Context, r messages.GroupRunReport) {
	g := l.group
	if g == nil {
		return
	}
	if r.Outcome == messages.GroupRunFailed {
		l.opts.Log.Warn("module run of the graph failed; retried in its queue, the modules that wait for it wait",
			"module", r.Module, "queue", r.Queue, "err", r.Err)
	}
	next, finished := g.report(r)
	if len(next) > 0 {
		l.enqueue(ctx, next...)
	}
	if !finished {
		l.publishConverge()
		return
	}
	l.group = nil
	l.publishConverge()
	l.opts.Log.Info("module run graph done", "modules", len(g.done))
	l.done(ctx, messages.TaskDone{})
}
