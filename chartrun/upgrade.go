package chartrun

import (
	"context"
	"errors"
	"fmt"

	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/storage/driver"
)

// Request is one upgrade-or-install of a module's release.
type Request struct {
	Release  string
	ChartDir string
	Values   map[string]any
}

// Result says what Upgrade did.
type Result struct {
	Upgraded bool
	Revision int
	Checksum string
	Reason   string
}

// Upgrade installs or upgrades the release from the chart in ChartDir with
// Values, unless the deployed release was made from the same chart and
// values and none of its resources is absent. A stuck release is cleared
// first (see decide).
func (r *Releaser) Upgrade(ctx context.Context, req Request) (Result, error) {
	if err := checkName(req.Release); err != nil {
		return Result{}, err
	}
	chrt, err := loader.Load(req.ChartDir)
	if err != nil {
		return Result{}, fmt.Errorf("load chart %s: %w", req.ChartDir, err)
	}
	sum, err := Checksum(chrt, req.Values)
	if err != nil {
		return Result{}, err
	}
	cfg, err := r.config()
	if err != nil {
		return Result{}, err
	}
	p, reason, err := r.plan(ctx, cfg, req.Release, sum)
	if err != nil {
		return Result{}, err
	}
	if p == planSkip {
		rev, _ := deployedRevision(cfg, req.Release)
		return Result{Revision: rev, Checksum: sum, Reason: reason}, nil
	}
	r.opts.Log.Info("helm release", "release", req.Release, "plan", planName(p), "reason", reason)
	rev, err := r.apply(ctx, cfg, p, req, chrt, sum)
	if err != nil {
		return Result{}, err
	}
	return Result{Upgraded: true, Revision: rev, Checksum: sum, Reason: reason}, nil
}

// plan reads the history and the absent resources and decides.
func (r *Releaser) plan(ctx context.Context, cfg *action.Configuration, name, sum string) (plan, string, error) {
	history, err := cfg.Releases.History(name)
	if err != nil && !errors.Is(err, driver.ErrReleaseNotFound) {
		return 0, "", fmt.Errorf("history of release %s: %w", name, err)
	}
	absent := 0
	if d := lastDeployed(history); d != nil && d.Labels[LabelChecksum] == sum {
		missing, err := r.absentIn(ctx, cfg, d.Manifest)
		if err != nil {
			return 0, "", fmt.Errorf("release %s: %w", name, err)
		}
		absent = len(missing)
	}
	return decide(history, sum, absent)
}

func (r *Releaser) apply(ctx context.Context, cfg *action.Configuration, p plan, req Request, chrt *chart.Chart, sum string) (int, error) {
	switch p {
	case planReinstall:
		if err := r.uninstall(cfg, req.Release); err != nil {
			return 0, err
		}
		return r.install(ctx, cfg, req, chrt, sum)
	case planRollback:
		rb := action.NewRollback(cfg)
		rb.Timeout, rb.MaxHistory = r.opts.Timeout, r.opts.MaxHistory
		if err := rb.Run(req.Release); err != nil {
			return 0, fmt.Errorf("roll back release %s: %w", req.Release, err)
		}
		return r.upgrade(ctx, cfg, req, chrt, sum)
	case planInstall:
		return r.install(ctx, cfg, req, chrt, sum)
	}
	return r.upgrade(ctx, cfg, req, chrt, sum)
}

func (r *Releaser) labels(sum string) map[string]string {
	return map[string]string{LabelHeritage: HeritageValue, LabelChecksum: sum}
}

func (r *Releaser) install(ctx context.Context, cfg *action.Configuration, req Request, chrt *chart.Chart, sum string) (int, error) {
	in := action.NewInstall(cfg)
	in.ReleaseName, in.Namespace, in.Timeout = req.Release, r.namespace, r.opts.Timeout
	in.Labels = r.labels(sum)
	// The apiserver validates every object anyway; helm's client-side check
	// downloads and parses the whole OpenAPI document for each run (half
	// the CPU of a cold converge, measured with bench/converge).
	in.DisableOpenAPIValidation = true
	rel, err := in.RunWithContext(ctx, chrt, req.Values)
	if err != nil {
		return 0, fmt.Errorf("install release %s: %w", req.Release, err)
	}
	return rel.Version, nil
}

func (r *Releaser) upgrade(ctx context.Context, cfg *action.Configuration, req Request, chrt *chart.Chart, sum string) (int, error) {
	up := action.NewUpgrade(cfg)
	up.Namespace, up.Timeout, up.MaxHistory = r.namespace, r.opts.Timeout, r.opts.MaxHistory
	up.Labels = r.labels(sum)
	up.DisableOpenAPIValidation = true
	rel, err := up.RunWithContext(ctx, req.Release, chrt, req.Values)
	if err != nil {
		return 0, fmt.Errorf("upgrade release %s: %w", req.Release, err)
	}
	return rel.Version, nil
}

func deployedRevision(cfg *action.Configuration, name string) (int, error) {
	rel, err := cfg.Releases.Deployed(name)
	if err != nil {
		return 0, err
	}
	return rel.Version, nil
}

func planName(p plan) string {
	return [...]string{"install", "upgrade", "skip", "reinstall", "rollback and upgrade"}[p]
}
