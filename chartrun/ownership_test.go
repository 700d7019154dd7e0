package chartrun_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chart"

	"github.com/addon-actors/addon-operator/chartrun"
)

// installPlain installs a release as someone else would: plain helm, no
// heritage label (only the given labels).
func installPlain(t *testing.T, cfg *action.Configuration, ns, name string, labels map[string]string) {
	t.Helper()
	in := action.NewInstall(cfg)
	in.ReleaseName, in.Namespace, in.Labels = name, ns, labels
	ch := &chart.Chart{Metadata: &chart.Metadata{APIVersion: "v2", Name: "other", Version: "1.0.0"},
		Templates: []*chart.File{{Name: "templates/cm.yaml", Data: []byte(fmt.Sprintf(cmTemplate, 0))}}}
	if _, err := in.Run(ch, map[string]any{"demo": map[string]any{"value": "theirs"}}); err != nil {
		t.Fatal(err)
	}
}

func TestIgnoredReleaseIsNeitherListedNorDeleted(t *testing.T) {
	f := newFixture(t, 1)
	ctx := context.Background()
	for _, name := range []string{"demo", "operator"} {
		if _, err := f.r.Upgrade(ctx, chartrun.Request{Release: name, ChartDir: f.dir, Values: map[string]any{}}); err != nil {
			t.Fatal(err)
		}
	}
	r, err := chartrun.NewReleaser(kube.Config(t), f.ns, chartrun.Options{IgnoreRelease: "operator"})
	if err != nil {
		t.Fatal(err)
	}
	if names, err := r.List(ctx); err != nil || !reflect.DeepEqual(names, []string{"demo"}) {
		t.Fatalf("List = %v, %v; want only demo", names, err)
	}
	if err := r.Delete(ctx, "operator"); !errors.Is(err, chartrun.ErrIgnoredRelease) {
		t.Fatalf("delete of the ignored release: %v", err)
	}
	if _, ok := f.value(t, "operator-0"); !ok {
		t.Fatal("the ignored release's object is gone")
	}
}

func TestModuleWithoutChartIsSkipped(t *testing.T) {
	f := newFixture(t, 0)
	dir := writeModule(t, map[string]string{"values.yaml": "demo: {}\n", "hooks/hook": "#!/bin/sh\n"})
	res, err := f.r.Upgrade(context.Background(), chartrun.Request{Release: "demo", ChartDir: dir, Values: map[string]any{}})
	if err != nil || res.Action != chartrun.NoChart || res.Upgraded {
		t.Fatalf("module without a chart: %+v, %v", res, err)
	}
	if _, err := f.r.Render(context.Background(), "demo", dir, nil); !errors.Is(err, chartrun.ErrNoChart) {
		t.Fatalf("render of a module without a chart: %v", err)
	}
	if names, _ := f.r.List(context.Background()); len(names) != 0 {
		t.Fatalf("a release was made: %v", names)
	}
}

func TestTemplatesWithoutChartYAMLInstall(t *testing.T) {
	f := newFixture(t, 0)
	dir := writeModule(t, map[string]string{"templates/cm.yaml": fmt.Sprintf(cmTemplate, 0)})
	res, err := f.r.Upgrade(context.Background(), chartrun.Request{Release: "demo", ChartDir: dir,
		Values: map[string]any{"demo": map[string]any{"value": "x"}}})
	if err != nil || res.Action != chartrun.Installed {
		t.Fatalf("templates without Chart.yaml: %+v, %v", res, err)
	}
	if v, _ := f.value(t, "demo-0"); v != "x" {
		t.Fatalf("demo-0 = %q", v)
	}
}

func TestAbsentResourcesOfAMissingRelease(t *testing.T) {
	f := newFixture(t, 1)
	if _, err := f.r.AbsentResources(context.Background(), "demo"); !errors.Is(err, chartrun.ErrNotDeployed) {
		t.Fatalf("absent check of a missing release: %v", err)
	}
}

func TestCancelledContextDoesNothing(t *testing.T) {
	f := newFixture(t, 1)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := f.r.Upgrade(ctx, chartrun.Request{Release: "demo", ChartDir: f.dir, Values: map[string]any{}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("upgrade with a cancelled context: %v", err)
	}
	if names, _ := f.r.List(context.Background()); len(names) != 0 {
		t.Fatalf("a release was made: %v", names)
	}
}
