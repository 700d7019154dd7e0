package app

import (
	"context"

	"github.com/addon-actors/addon-operator/actors/operator"
	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/chartrun"
	"github.com/addon-actors/addon-operator/messages"
)

// ChartHelm adapts chartrun.Releaser to what the actors need.
type ChartHelm struct{ R *chartrun.Releaser }

// Upgrade implements worker.Releaser.
func (h ChartHelm) Upgrade(ctx context.Context, job worker.HelmJob) (worker.HelmOutcome, error) {
	res, err := h.R.Upgrade(ctx, job.Request)
	out := worker.HelmOutcome{Upgraded: res.Upgraded, Action: string(res.Action), Revision: res.Revision, Reason: res.Reason,
		Destructive: destructive(res.Destructive), Drift: driftedObjects(res.Drift, job.Secrets)}
	if res.Wait != nil {
		out.Wait = &worker.WaitOutcome{Outcome: res.Wait.Outcome, Took: res.Wait.Took}
	}
	return out, err
}

// Uninstall implements worker.Releaser.
func (h ChartHelm) Uninstall(ctx context.Context, module string) (worker.Removal, error) {
	gone, err := h.R.Uninstall(ctx, module)
	return worker.Removal{Revision: gone.Revision, Status: gone.Status, Destructive: destructive(gone.Destructive)}, err
}

// Remediate implements worker.Releaser.
func (h ChartHelm) Remediate(ctx context.Context, job worker.RemediateJob) (worker.Remedied, error) {
	done, err := h.R.Remediate(ctx, chartrun.Remedy{Release: job.Module, Rollback: job.Rollback,
		Uninstall: job.Uninstall, AfterWait: job.AfterWait})
	return worker.Remedied{Action: string(done.Action), Revision: done.Revision, Reason: done.Reason}, err
}

// Delete implements operator.Releases (the purge).
func (h ChartHelm) Delete(ctx context.Context, module string) error { return h.R.Delete(ctx, module) }

// destructive converts chartrun's adoptions and clears; chartrun's action
// names are owner's.
func destructive(done []chartrun.Destructive) []worker.Destructive {
	var out []worker.Destructive
	for _, d := range done {
		out = append(out, worker.Destructive{Action: d.Action, Reason: d.Reason})
	}
	return out
}

// Names implements operator.Releases.
func (h ChartHelm) Names(ctx context.Context) (operator.ReleaseList, error) {
	names, err := h.R.Names(ctx)
	return operator.ReleaseList{Owned: names.Owned, All: names.All, Stuck: names.Stuck}, err
}

// Check implements worker.Releaser.
func (h ChartHelm) Check(ctx context.Context, job worker.CheckJob) (worker.ReleaseCheck, error) {
	c, err := h.R.Check(ctx, job.Module, job.Drift)
	names := make([]string, 0, len(c.Absent))
	for _, o := range c.Absent {
		names = append(names, o.String())
	}
	return worker.ReleaseCheck{Absent: names, Drift: driftedObjects(c.Drift, job.Secrets)}, err
}

// Restore implements worker.Releaser.
func (h ChartHelm) Restore(ctx context.Context, _ string, drifted []messages.DriftedObject) ([]string, error) {
	objs := make([]chartrun.ObjectDrift, 0, len(drifted))
	for _, d := range drifted {
		o, err := objectDrift(d)
		if err != nil {
			return nil, err
		}
		objs = append(objs, o)
	}
	done, err := h.R.Restore(ctx, objs)
	names := make([]string, 0, len(done))
	for _, o := range done {
		names = append(names, o.String())
	}
	return names, err
}

// Exists implements worker.Releaser.
func (h ChartHelm) Exists(ctx context.Context, module string) (bool, error) {
	return h.R.Exists(ctx, module)
}

// Render implements Helm.
func (h ChartHelm) Render(ctx context.Context, release, chartDir string, values map[string]any) (string, error) {
	return h.R.Render(ctx, release, chartDir, values)
}
