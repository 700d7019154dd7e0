package module

import (
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

// countHelmWait counts the helm step's wait for the workloads (the core
// clears the wait's state).
func (a *Actor) countHelmWait(r worker.HelmResult) {
	if w := r.Outcome.Wait; w != nil && w.Outcome != "cancelled" {
		a.count(func(m Metrics) { m.ReadyWait(a.name(), w.Outcome, w.Took) })
	}
}
