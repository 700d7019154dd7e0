package operator

import (
	"log/slog"

	"github.com/addon-actors/addon-operator/actors/step"
	"github.com/addon-actors/addon-operator/messages"
)

// startGroup runs a ParallelModuleRun: it queues the graph's first module
// runs into the parallel queues; main stays blocked on it until the
// graph has finished (groupReported).
func (c *Core) startGroup(t messages.Task) []Effect {
	if len(t.Modules) == 0 {
		return []Effect{c.finish(messages.TaskDone{})}
	}
	deps := runDeps(t.Modules, definitions(c.modules))
	c.group = newRunGraph(t, deps, c.opts.ParallelModuleRuns)
	return []Effect{
		Log(step.At(slog.LevelInfo, "module run graph started", "modules", len(t.Modules), "queues", len(c.group.queues))),
		Enqueue{Tasks: c.group.start()},
		c.publishConverge(),
	}
}

// groupReported takes the queue's report of one module run of the graph
// in flight: it queues the next ones and ends the ParallelModuleRun once
// every module has succeeded.
func (c *Core) groupReported(r messages.GroupRunReport) []Effect {
	g := c.group
	if g == nil {
		return nil
	}
	var out []Effect
	if r.Outcome == messages.GroupRunFailed {
		out = append(out, Log(step.At(slog.LevelWarn, "module run of the graph failed; retried in its queue, the modules that wait for it wait",
			"module", r.Module, "queue", r.Queue, "err", r.Err)))
	}
	next, finished := g.report(r)
	if len(next) > 0 {
		out = append(out, Enqueue{Tasks: next})
	}
	if !finished {
		return append(out, c.publishConverge())
	}
	c.group = nil
	return append(out, c.publishConverge(),
		Log(step.At(slog.LevelInfo, "module run graph done", "modules", len(g.done))),
		c.finish(messages.TaskDone{}))
}
