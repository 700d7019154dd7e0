package cluster_test

import (
	"context"
	"fmt"
	"log/slog"
	"testing"

	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/release"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/addon-actors/addon-operator/chartrun"
)

const probeTemplate = `apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ .Release.Name }}-cm
data:
  greeting: {{ .Values.greeting | quote }}
`

// The helm library installs, upgrades and uninstalls a chart on the real
// apiserver: the objects and the release secret are really there.
func TestHelmInstallUpgradeUninstall(t *testing.T) {
	ns := kube.Namespace(t)
	client := kube.Client(t)
	cfg := &action.Configuration{}
	getter := chartrun.NewRESTGetter(kube.Config(t), ns)
	if err := cfg.Init(getter, ns, "secret", func(format string, v ...any) {
		slog.Default().Debug(fmt.Sprintf(format, v...))
	}); err != nil {
		t.Fatalf("helm init: %v", err)
	}
	ch := &chart.Chart{
		Metadata:  &chart.Metadata{APIVersion: "v2", Name: "probe", Version: "0.1.0"},
		Templates: []*chart.File{{Name: "templates/cm.yaml", Data: []byte(probeTemplate)}},
	}

	install := action.NewInstall(cfg)
	install.ReleaseName, install.Namespace = "probe", ns
	rel, err := install.Run(ch, map[string]any{"greeting": "hello"})
	if err != nil {
		t.Fatalf("install: %v", err)
	}
	expectRelease(t, rel, 1)
	expectGreeting(t, client, ns, "hello")
	expectReleaseSecrets(t, client, ns, 1)

	upgrade := action.NewUpgrade(cfg)
	upgrade.Namespace = ns
	rel, err = upgrade.Run("probe", ch, map[string]any{"greeting": "bonjour"})
	if err != nil {
		t.Fatalf("upgrade: %v", err)
	}
	expectRelease(t, rel, 2)
	expectGreeting(t, client, ns, "bonjour")
	expectReleaseSecrets(t, client, ns, 2)

	if _, err := action.NewUninstall(cfg).Run("probe"); err != nil {
		t.Fatalf("uninstall: %v", err)
	}
	_, err = client.CoreV1().ConfigMaps(ns).Get(context.Background(), "probe-cm", metav1.GetOptions{})
	if !apierrors.IsNotFound(err) {
		t.Fatalf("configmap after uninstall: err = %v, want NotFound", err)
	}
	expectReleaseSecrets(t, client, ns, 0)
}

func expectRelease(t *testing.T, rel *release.Release, revision int) {
	t.Helper()
	if rel.Version != revision || rel.Info.Status != release.StatusDeployed {
		t.Fatalf("release revision %d status %s, want revision %d deployed", rel.Version, rel.Info.Status, revision)
	}
}

func expectGreeting(t *testing.T, client kubernetes.Interface, ns, want string) {
	t.Helper()
	cm, err := client.CoreV1().ConfigMaps(ns).Get(context.Background(), "probe-cm", metav1.GetOptions{})
	if err != nil {
		t.Fatalf("get rendered configmap: %v", err)
	}
	if got := cm.Data["greeting"]; got != want {
		t.Fatalf("greeting = %q, want %q", got, want)
	}
}

func expectReleaseSecrets(t *testing.T, client kubernetes.Interface, ns string, want int) {
	t.Helper()
	list, err := client.CoreV1().Secrets(ns).List(context.Background(), metav1.ListOptions{LabelSelector: "owner=helm,name=probe"})
	if err != nil {
		t.Fatalf("list release secrets: %v", err)
	}
	if len(list.Items) != want {
		t.Fatalf("release secrets = %d, want %d", len(list.Items), want)
	}
}
