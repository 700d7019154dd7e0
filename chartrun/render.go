package chartrun

import (
	"context"
	"fmt"

	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chart/loader"
)

// Render returns the manifests the chart in chartDir renders with values
// for the release, without installing anything (the debug CLI's `module
// render`). The apiserver is asked for its version and APIs, as for a real
// install.
func (r *Releaser) Render(ctx context.Context, release, chartDir string, values map[string]any) (string, error) {
	if err := checkName(release); err != nil {
		return "", err
	}
	chrt, err := loader.Load(chartDir)
	if err != nil {
		return "", fmt.Errorf("load chart %s: %w", chartDir, err)
	}
	cfg, err := r.config()
	if err != nil {
		return "", err
	}
	in := action.NewInstall(cfg)
	in.ReleaseName, in.Namespace = release, r.namespace
	in.DryRun, in.DryRunOption, in.Replace, in.DisableHooks = true, "client", true, true
	in.ClientOnly = false
	in.DisableOpenAPIValidation = true
	rel, err := in.RunWithContext(ctx, chrt, values)
	if err != nil {
		return "", fmt.Errorf("render %s: %w", release, err)
	}
	return rel.Manifest, nil
}
