package app

import (
	"context"
	"errors"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/addon-actors/addon-operator/actors/config"
	"github.com/addon-actors/addon-operator/chartrun"
	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/whatif"
	"github.com/addon-actors/addon-operator/layout"
	mcconversion "github.com/addon-actors/addon-operator/moduleconfig/conversion"
	"github.com/addon-actors/addon-operator/values"
	"github.com/addon-actors/addon-operator/values/schema"
)

// DeployedRelease implements whatif.Helm.
func (h ChartHelm) DeployedRelease(ctx context.Context, name string) (chartrun.Deployed, bool, error) {
	return h.R.DeployedRelease(ctx, name)
}

// ReleaseNames implements whatif.Helm.
func (h ChartHelm) ReleaseNames(ctx context.Context) (chartrun.ReleaseNames, error) {
	return h.R.Names(ctx)
}

// errNoPlanHelm: the app was built with a Helm that cannot read releases.
var errNoPlanHelm = errors.New("plan: this operator's helm cannot read releases")

// planHelm is the app's Helm as a plan reads it.
type planHelm struct{ h Helm }

func (p planHelm) Render(ctx context.Context, release, chartDir string, vals map[string]any) (string, error) {
	return p.h.Render(ctx, release, chartDir, vals)
}

func (p planHelm) DeployedRelease(ctx context.Context, name string) (chartrun.Deployed, bool, error) {
	r, ok := p.h.(whatif.Helm)
	if !ok {
		return chartrun.Deployed{}, false, errNoPlanHelm
	}
	return r.DeployedRelease(ctx, name)
}

func (p planHelm) ReleaseNames(ctx context.Context) (chartrun.ReleaseNames, error) {
	r, ok := p.h.(whatif.Helm)
	if !ok {
		return chartrun.ReleaseNames{}, errNoPlanHelm
	}
	return r.ReleaseNames(ctx)
}

// newPlanner builds the planner of POST /plan from the running app.
func newPlanner(cfg Config, a *App, client kubernetes.Interface, common values.Sections, globalSchemas *schema.Set,
	globalChain mcconversion.Chain, scan func() ([]layout.Definition, []error)) *whatif.Planner {
	live := func(ctx context.Context) (map[string]string, error) {
		return LiveConfig(ctx, client, cfg.Namespace, cfg.ConfigMap)
	}
	return whatif.New(whatif.Options{Board: a.Board, Scan: scan, Common: common,
		GlobalSchemas: schemasOrNil(globalSchemas), GlobalConversions: globalChain, Helm: planHelm{cfg.Helm}, Enabled: a.Runner, LiveData: live,
		IgnoreRelease: cfg.IgnoreRelease, KubeVersion: a.kubeVersion, ParallelModuleRuns: cfg.ParallelModuleRuns, Log: cfg.Log,
		Secrets: config.Secrets{Client: client, Namespace: cfg.Namespace}.Reader})
}

// Plan computes what the request's configuration would do (POST /plan).
func (a *App) Plan(ctx context.Context, req whatif.Request) (whatif.Plan, error) {
	return a.planner.Plan(ctx, req)
}

// LiveConfig reads the data of the ConfigMap namespace/name; a missing
// ConfigMap is an empty config, as the operator takes it.
func LiveConfig(ctx context.Context, client kubernetes.Interface, namespace, name string) (map[string]string, error) {
	cm, err := client.CoreV1().ConfigMaps(namespace).Get(ctx, name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("ConfigMap %s/%s: %w", namespace, name, err)
	}
	return cm.Data, nil
}
