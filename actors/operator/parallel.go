package operator

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/messages"
)

// startGroup runs a ParallelModuleRun: it queues the group's first module
// runs into the parallel queues; main stays blocked on it until the
// group has finished (handleGroupReport).
func (b *lifecycle) startGroup(ctx actor.Context, t messages.Task) {
	if len(t.Modules) == 0 {
		b.done(ctx, messages.TaskDone{})
		return
	}
	b.group = newGroupRun(t.ID, t.Reason, t.Modules, b.opts.ParallelModuleRuns)
	b.opts.Log.Info("weight group started", "modules", t.Modules, "queues", b.opts.ParallelModuleRuns)
	b.enqueue(ctx, b.group.start()...)
}

// handleGroupReport takes the queue's report of one module run of the
// group in flight: it queues the next ones and ends the ParallelModuleRun
// once every module has succeeded.
func (b *lifecycle) handleGroupReport(ctx actor.Context, r messages.GroupRunReport) {
	g := b.group
	if g == nil {
		return
	}
	if r.Outcome == messages.GroupRunFailed {
		b.opts.Log.Warn("module run of a weight group failed; retried in its queue",
			"module", r.Module, "queue", r.Queue, "err", r.Err)
	}
	next, finished := g.report(r)
	if len(next) > 0 {
		b.enqueue(ctx, next...)
	}
	if !finished {
		return
	}
	b.group = nil
	b.opts.Log.Info("weight group done", "modules", g.done, "failures", len(g.failures))
	b.done(ctx, messages.TaskDone{})
}
