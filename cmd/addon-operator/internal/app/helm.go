package app

import (
	"context"

	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/chartrun"
)

// ChartHelm adapts chartrun.Releaser to what the actors need.
type ChartHelm struct{ R *chartrun.Releaser }

// Upgrade implements worker.Releaser.
func (h ChartHelm) Upgrade(ctx context.Context, module, chartDir string, vals map[string]any) (worker.HelmOutcome, error) {
	res, err := h.R.Upgrade(ctx, chartrun.Request{Release: module, ChartDir: chartDir, Values: vals})
	return worker.HelmOutcome{Upgraded: res.Upgraded, Action: string(res.Action), Revision: res.Revision, Reason: res.Reason,
		Destructive: destructive(res.Destructive)}, err
}

// Uninstall implements worker.Releaser.
func (h ChartHelm) Uninstall(ctx context.Context, module string) (worker.Removal, error) {
	gone, err := h.R.Uninstall(ctx, module)
	return worker.Removal{Revision: gone.Revision, Status: gone.Status, Destructive: destructive(gone.Destructive)}, err
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
func (h ChartHelm) Names(ctx context.Context) (owned, all []string, err error) {
	names, err := h.R.Names(ctx)
	return names.Owned, names.All, err
}

// Absent implements worker.Releaser.
func (h ChartHelm) Absent(ctx context.Context, module string) ([]string, error) {
	objects, err := h.R.AbsentResources(ctx, module)
	names := make([]string, 0, len(objects))
	for _, o := range objects {
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
