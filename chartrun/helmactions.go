package chartrun

import (
	"context"
	"errors"
	"fmt"

	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/postrender"
	"helm.sh/helm/v3/pkg/release"
	"helm.sh/helm/v3/pkg/storage/driver"
)

// The helm actions, configured alike. Install and upgrade take the run's
// context; helm's rollback and uninstall do not, so the context is checked
// before them and their own Timeout bounds them.

// labels are a written revision's: ours, its checksum (under the
// original's name too), and whether it was written in maintenance mode.
func (r *Releaser) labels(req Request, sum string) map[string]string {
	return map[string]string{LabelHeritage: HeritageValue, LabelChecksum: sum, LabelModuleChecksum: sum,
		LabelMaintenance: maintenanceLabel(req.Maintenance)}
}

// postRenderer labels the objects of a revision written in maintenance mode.
func postRenderer(req Request) postrender.PostRenderer {
	if req.Maintenance {
		return maintenanceRenderer{}
	}
	return nil
}

func (r *Releaser) install(ctx context.Context, cfg *action.Configuration, req Request, chrt *chart.Chart, sum string) (*release.Release, error) {
	in := action.NewInstall(cfg)
	in.ReleaseName, in.Namespace, in.Timeout = req.Release, r.namespace, r.opts.Timeout
	in.Labels, in.PostRenderer = r.labels(req, sum), postRenderer(req)
	// The apiserver validates every object anyway; helm's client-side check
	// downloads and parses the whole OpenAPI document for each run (half
	// the CPU of a cold converge, measured with bench/converge).
	in.DisableOpenAPIValidation = true
	// A module's crds/ are applied by the operator before its first run
	// (chartrun/crds), never by helm.
	in.SkipCRDs = true
	rel, err := in.RunWithContext(ctx, chrt, req.Values)
	if err != nil {
		return nil, fmt.Errorf("install release %s: %w", req.Release, err)
	}
	return rel, nil
}

func (r *Releaser) upgrade(ctx context.Context, cfg *action.Configuration, req Request, chrt *chart.Chart, sum string) (*release.Release, error) {
	up := action.NewUpgrade(cfg)
	up.Namespace, up.Timeout, up.MaxHistory = r.namespace, r.opts.Timeout, r.opts.MaxHistory
	up.Labels, up.PostRenderer = r.labels(req, sum), postRenderer(req)
	up.DisableOpenAPIValidation = true
	up.SkipCRDs = true
	rel, err := up.RunWithContext(ctx, req.Release, chrt, req.Values)
	if err != nil {
		return nil, fmt.Errorf("upgrade release %s: %w", req.Release, err)
	}
	return rel, nil
}

// rollback goes back to the given (last deployed) revision, which need not
// be the previous one.
func (r *Releaser) rollback(ctx context.Context, cfg *action.Configuration, name string, version int) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("roll back release %s: %w", name, err)
	}
	rb := action.NewRollback(cfg)
	rb.Version, rb.Timeout, rb.MaxHistory = version, r.opts.Timeout, r.opts.MaxHistory
	if err := rb.Run(name); err != nil {
		return fmt.Errorf("roll back release %s to revision %d: %w", name, version, err)
	}
	return nil
}

func (r *Releaser) uninstall(ctx context.Context, cfg *action.Configuration, name string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("uninstall release %s: %w", name, err)
	}
	un := action.NewUninstall(cfg)
	un.Timeout = r.opts.Timeout
	if _, err := un.Run(name); err != nil && !errors.Is(err, driver.ErrReleaseNotFound) {
		return fmt.Errorf("uninstall release %s: %w", name, err)
	}
	return nil
}
