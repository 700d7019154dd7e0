package e2e_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/lint"
	"helm.sh/helm/v3/pkg/lint/support"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/addon-actors/addon-operator/chartrun"
)

// deployDir is the repository's deploy/ folder.
func deployDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "deploy")
}

// The chart lints; deploy/manifests.yaml is its rendering with the default
// values (UPDATE_MANIFESTS=1 rewrites it); and the chart installs on the
// real apiserver with every object the operator needs.
func TestDeployChart(t *testing.T) {
	chartDir := filepath.Join(deployDir(), "addon-operator")
	linter := lint.All(chartDir, nil, "addon-operator", false)
	for _, m := range linter.Messages {
		if m.Severity >= support.WarningSev {
			t.Errorf("lint: %s", m)
		}
	}
	manifest, err := renderChart(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	manifests := filepath.Join(deployDir(), "manifests.yaml")
	rendered := "# Rendered from deploy/addon-operator with its default values (release and namespace addon-operator).\n" +
		"# Regenerate: UPDATE_MANIFESTS=1 go test ./test/e2e -run TestDeployChart\n" + manifest
	if os.Getenv("UPDATE_MANIFESTS") != "" {
		if err := os.WriteFile(manifests, []byte(rendered), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if want, err := os.ReadFile(manifests); err != nil || string(want) != rendered {
		t.Fatalf("deploy/manifests.yaml is not the chart's rendering (%v): run UPDATE_MANIFESTS=1 go test ./test/e2e -run TestDeployChart", err)
	}
	ns := kube.Namespace(t)
	installChart(t, ns, map[string]any{"config": map[string]any{"global": "clusterName: test\n"}})
	checkInstalled(t, ns)
}

// installChart installs deploy/addon-operator as release "ao" in ns and
// uninstalls it at the end of the test.
func installChart(t *testing.T, ns string, values map[string]any) {
	t.Helper()
	chartDir := filepath.Join(deployDir(), "addon-operator")
	cfg := &action.Configuration{}
	if err := cfg.Init(chartrun.NewRESTGetter(kube.Config(t), ns), ns, "secret", func(string, ...any) {}); err != nil {
		t.Fatal(err)
	}
	chrt, err := loader.Load(chartDir)
	if err != nil {
		t.Fatal(err)
	}
	in := action.NewInstall(cfg)
	in.ReleaseName, in.Namespace = "ao", ns
	if _, err := in.Run(chrt, values); err != nil {
		t.Fatalf("install the chart: %v", err)
	}
	t.Cleanup(func() {
		if _, err := action.NewUninstall(cfg).Run("ao"); err != nil {
			t.Errorf("uninstall: %v", err)
		}
	})
}

// checkInstalled checks the objects the operator needs.
func checkInstalled(t *testing.T, ns string) {
	t.Helper()
	client := kube.Client(t)
	ctx := context.Background()
	dep, err := client.AppsV1().Deployments(ns).Get(ctx, "ao", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if probe := dep.Spec.Template.Spec.Containers[0].ReadinessProbe; probe == nil || probe.HTTPGet.Path != "/readyz" {
		t.Fatalf("readiness probe %+v", probe)
	}
	if _, err := client.RbacV1().ClusterRoles().Get(ctx, ns+"-ao", metav1.GetOptions{}); err != nil {
		t.Fatal(err)
	}
	cm, err := client.CoreV1().ConfigMaps(ns).Get(ctx, "addon-operator", metav1.GetOptions{})
	if err != nil || cm.Data["global"] != "clusterName: test\n" {
		t.Fatalf("ConfigMap: %v %v", cm, err)
	}
}
