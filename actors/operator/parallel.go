package operator

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/messages"
)

// startGroup runs a ParallelModuleRun: it queues the graph's first module
// runs into the parallel queues; main stays blocked on it until the
// graph has finished (handleGroupReport).
func (b *lifecycle) startGroup(ctx actor.Context, t messages.Task) {
	if len(t.Modules) == 0 {
		b.done(ctx, messages.TaskDone{})
		return
	}
	deps := runDeps(t.Modules, definitions(b.opts.Modules))
	b.group = newRunGraph(t.ID, t.Reason, t.Modules, deps, b.opts.ParallelModuleRuns)
	b.opts.Log.Info("module run graph started", "modules", len(t.Modules), "queues", len(b.group.queues))
	b.enqueue(ctx, b.group.start()...)
	b.publishConverge()
}

// handleGroupReport takes the queue's report of one module run of the
// graph in flight: it queues the next ones and ends the ParallelModuleRun
// once every module has succeeded.
func (b *lifecycle) handleGroupReport(ctx actor.Context, r messages.GroupRunReport) {
	g := b.group
	if g == nil {
		return
	}
	if r.Outcome == messages.GroupRunFailed {
		b.opts.Log.Warn("module run of the graph failed; retried in its queue, the modules that wait for it wait",
			"module", r.Module, "queue", r.Queue, "err", r.Err)
	}
	next, finished := g.report(r)
	if len(next) > 0 {
		b.enqueue(ctx, next...)
	}
	if !finished {
		b.publishConverge()
		return
	}
	b.group = nil
	b.publishConverge()
	b.opts.Log.Info("module run graph done", "modules", len(g.done))
	b.done(ctx, messages.TaskDone{})
}
