package e2e_test

import (
	"path/filepath"
	"strings"
	"testing"

	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/release"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/scheme"
)

// renderChart renders deploy/addon-operator with values, client-side, as
// release and namespace addon-operator.
func renderChart(t *testing.T, values map[string]any) (string, error) {
	t.Helper()
	rel, err := renderRelease(t, values)
	if err != nil {
		return "", err
	}
	return rel.Manifest, nil
}

// renderRelease is renderChart's release (its manifest and NOTES).
func renderRelease(t *testing.T, values map[string]any) (*release.Release, error) {
	t.Helper()
	chrt, err := loader.Load(filepath.Join(deployDir(), "addon-operator"))
	if err != nil {
		t.Fatal(err)
	}
	render := action.NewInstall(&action.Configuration{})
	render.ReleaseName, render.Namespace, render.DryRun, render.ClientOnly = "addon-operator", "addon-operator", true, true
	return render.Run(chrt, values)
}

// renderedObjects renders the chart and decodes each of its documents.
func renderedObjects(t *testing.T, values map[string]any) []runtime.Object {
	t.Helper()
	manifest, err := renderChart(t, values)
	if err != nil {
		t.Fatalf("render the chart: %v", err)
	}
	var objs []runtime.Object
	for i, doc := range strings.Split(manifest, "\n---\n") {
		if strings.TrimSpace(strings.TrimPrefix(doc, "---")) == "" {
			continue
		}
		obj, _, err := scheme.Codecs.UniversalDeserializer().Decode([]byte(doc), nil, nil)
		if err != nil {
			t.Fatalf("decode document %d of the rendered chart: %v\n%s", i, err, doc)
		}
		objs = append(objs, obj)
	}
	return objs
}
