package module

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/chartrun"
)

// helmJob is the helm step's job, with the module's drift and wait settings.
func (a *Actor) helmJob(e RunHelm) worker.HelmJob {
	return worker.HelmJob{Request: chartrun.Request{Release: a.name(), ChartDir: a.opts.Definition.Dir, Values: e.Values,
		Maintenance: e.Maintenance, Drift: e.Drift, Wait: e.Wait, WaitTimeout: e.WaitTimeout,
		Force: e.Force},
		Secrets: a.secrets(e.Module)}
}

// handleHelmResult counts the helm step's wait and hands its result to the
// core.
func (a *Actor) handleHelmResult(ctx actor.Context, r worker.HelmResult) {
	a.countHelmWait(r)
	a.step(ctx, HelmFinished{Result: r})
}

// countHelmWait counts the helm step's wait for the workloads (the core
// clears the wait's state).
func (a *Actor) countHelmWait(r worker.HelmResult) {
	if w := r.Outcome.Wait; w != nil && w.Outcome != "cancelled" {
		a.count(func(m Metrics) { m.ReadyWait(a.name(), w.Outcome, w.Took) })
	}
}

// stalledSet logs and counts a module that stalls, or runs again.
func (a *Actor) stalledSet(e StalledSet) {
	if e.On {
		a.log.Error("module stalled: its runs failed as many times in a row as remediation.retries allows; " +
			"none is retried until something changes for it (its config section, values, dir, a requirement, a reset)")
	} else {
		a.log.Info("module no longer stalled: a run of it was queued")
	}
	a.count(func(m Metrics) { m.Stalled(a.name(), e.On) })
}
