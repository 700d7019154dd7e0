package module

import (
	"time"

	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/chartrun"
	"github.com/addon-actors/addon-operator/messages"
)

// readyWait is the module's wait for its release's workloads after helm:
// its module.yaml's readiness, else the operator's setting.
func (a *Actor) readyWait() (on bool, timeout time.Duration) {
	on, timeout = a.opts.WaitReady, a.opts.WaitReadyTimeout
	rel := a.opts.Definition.Release
	if rel.Wait != nil {
		on = *rel.Wait
	}
	if rel.WaitTimeout > 0 {
		timeout = rel.WaitTimeout
	}
	return on, timeout
}

// helmJob is the helm step's job, with the module's drift and wait settings.
func (a *Actor) helmJob(e RunHelm) worker.HelmJob {
	wait, timeout := a.readyWait()
	return worker.HelmJob{Request: chartrun.Request{Release: a.name(), ChartDir: a.opts.Definition.Dir, Values: e.Values,
		Maintenance: e.Maintenance, Drift: a.core.DriftMode != DriftOff, Wait: wait, WaitTimeout: timeout},
		Secrets: a.secrets()}
}

// countHelmWait counts the helm step's wait for the workloads (the core
// clears the wait's state).
func (a *Actor) countHelmWait(r worker.HelmResult) {
	if w := r.Outcome.Wait; w != nil && w.Outcome != "cancelled" {
		a.count(func(m Metrics) { m.ReadyWait(a.name(), w.Outcome, w.Took) })
	}
}

// helmWaiting shows what the helm step waits for: in the module's state
// (`module why`) and as its task's status (`queue list`), since the first
// time it waited.
func (c *Core) helmWaiting(notReady []string, env Env) []Effect {
	t, running := c.Current()
	if c.Phase() != Helm || !running {
		return nil // the step is over
	}
	w := board.WaitState{Since: env.Now, NotReady: notReady}
	if prev := c.State.Wait; prev != nil {
		w.Since = prev.Since
	}
	c.State.Wait = &w
	return []Effect{Publish{}, TaskStatus{Progress: messages.TaskProgress{Queue: t.Queue, ID: t.ID, Status: w.Text(), Since: w.Since}}}
}
