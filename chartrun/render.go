package chartrun

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/engine"
)

// Render returns the manifests the chart in chartDir renders with values
// for the release, without installing anything (the debug CLI's `module
// render`). They are the manifests whose checksum Upgrade compares. A module
// dir without a chart gives ErrNoChart.
func (r *Releaser) Render(ctx context.Context, release, chartDir string, values map[string]any) (string, error) {
	if err := r.checkName(release); err != nil {
		return "", err
	}
	chrt, err := loadChart(chartDir, release)
	if err != nil {
		return "", err
	}
	caps, err := r.capabilities(ctx)
	if err != nil {
		return "", err
	}
	return r.render(chrt, release, values, caps)
}

// render runs the chart's templates as helm does for an install, with the
// cluster's capabilities and `lookup` answered by the cluster. The release
// options are fixed (revision 1, install), so that templates printing
// .Release.Revision do not make every run an upgrade.
func (r *Releaser) render(chrt *chart.Chart, release string, values map[string]any, caps *chartutil.Capabilities) (string, error) {
	opts := chartutil.ReleaseOptions{Name: release, Namespace: r.namespace, Revision: 1, IsInstall: true}
	vals, err := chartutil.ToRenderValues(chrt, values, opts, caps)
	if err != nil {
		return "", fmt.Errorf("render %s: values: %w", release, err)
	}
	files, err := engine.New(r.getter.config).Render(chrt, vals)
	if err != nil {
		return "", fmt.Errorf("render %s: %w", release, err)
	}
	return joinManifests(files), nil
}

// joinManifests puts the rendered templates in one text in the order of
// their names, each under a "# Source:" line as `helm template` prints them;
// NOTES.txt and templates that render to nothing are left out.
func joinManifests(files map[string]string) string {
	names := make([]string, 0, len(files))
	for name, text := range files {
		if strings.HasSuffix(name, "NOTES.txt") || strings.TrimSpace(text) == "" {
			continue
		}
		names = append(names, name)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, name := range names {
		fmt.Fprintf(&b, "---\n# Source: %s\n%s\n", name, strings.TrimSpace(files[name]))
	}
	return b.String()
}
