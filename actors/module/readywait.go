package module

import (
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/board"
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
func (a *Actor) helmJob(values map[string]any) worker.HelmJob {
	wait, timeout := a.readyWait()
	return worker.HelmJob{Module: a.name(), ChartDir: a.opts.Definition.Dir, Values: values,
		Drift: a.driftMode() != DriftOff, Wait: wait, WaitTimeout: timeout}
}

// handleHelmWaiting shows what the helm step waits for: in the module's
// state (`module why`) and as its task's status (`queue list`).
func (a *Actor) handleHelmWaiting(ctx actor.Context, msg worker.HelmWaiting) {
	if a.core.Phase() != Helm {
		return // the step is over
	}
	w := board.WaitState{Since: a.now(), NotReady: msg.NotReady}
	if prev := a.core.State.Wait; prev != nil {
		w.Since = prev.Since
	}
	a.core.State.Wait = &w
	a.publish()
	if t, ok := a.core.Current(); ok && a.peers.Queue != nil {
		ctx.Send(a.peers.Queue, messages.TaskProgress{Queue: t.Queue, ID: t.ID, Status: w.Text(), Since: w.Since})
	}
}

// endHelmWait clears the wait's state when the helm step ends (the core
// publishes it with the step's outcome), and counts the wait.
func (a *Actor) endHelmWait(r worker.HelmResult) {
	a.core.State.Wait = nil
	if w := r.Outcome.Wait; w != nil && w.Outcome != "cancelled" {
		a.count(func(m Metrics) { m.ReadyWait(a.name(), w.Outcome, w.Took) })
	}
}
