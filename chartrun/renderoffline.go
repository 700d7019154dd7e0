package chartrun

import (
	"fmt"

	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/engine"
)

// RenderOffline renders the chart in chartDir for the release in namespace
// as Render does, without a cluster: helm's default capabilities, and
// `lookup` finds nothing (`addon-operator rbac` without a kubeconfig).
func RenderOffline(release, namespace, chartDir string, values map[string]any) (string, error) {
	chrt, err := loadChart(chartDir, release)
	if err != nil {
		return "", err
	}
	opts := chartutil.ReleaseOptions{Name: release, Namespace: namespace, Revision: 1, IsInstall: true}
	vals, err := chartutil.ToRenderValues(chrt, values, opts, chartutil.DefaultCapabilities.Copy())
	if err != nil {
		return "", fmt.Errorf("render %s: values: %w", release, err)
	}
	files, err := engine.Render(chrt, vals)
	if err != nil {
		return "", fmt.Errorf("render %s: %w", release, err)
	}
	return joinManifests(files), nil
}

// ManifestObjects lists the objects of rendered manifests in helm's order,
// helm's hooks included (helm creates and deletes those too).
func ManifestObjects(manifest string) ([]Object, error) {
	return manifestObjects(manifest, withHooks)
}
