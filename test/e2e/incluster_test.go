package e2e_test

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	authv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/addon-actors/addon-operator/test/scenario"
)

// inPod is the command prefix that runs the binary as in the chart's pod:
// in a private mount namespace (unshare, no root needed where user
// namespaces are allowed) with a tmpfs on /run holding the service
// account's files copied from $SA_DIR, the place rest.InClusterConfig reads
// them from; the root filesystem read-only, as readOnlyRootFilesystem makes
// it; a tmpfs on each of the pod's emptyDir mount paths ($EMPTY_DIRS). The
// host's tree stays readable, read-only, under /run/host: the binary and
// the modules are taken from there.
var inPod = []string{"unshare", "--user", "--map-root-user", "--mount", "sh", "-c",
	`set -e; mount -t tmpfs tmpfs /run && mkdir -p /run/secrets/kubernetes.io/serviceaccount && ` +
		`cp "$SA_DIR"/* /run/secrets/kubernetes.io/serviceaccount/ && ` +
		`mkdir /run/host && mount --rbind / /run/host && mount -o remount,bind,ro /run/host && ` +
		`mount -o remount,bind,ro / && if touch /.writable 2>/dev/null; then echo "root is writable" >&2; exit 1; fi; ` +
		`for d in $EMPTY_DIRS; do mkdir -p "$d" && mount -t tmpfs tmpfs "$d"; done; ` +
		`bin=$1; shift; exec "/run/host$bin" "$@"`, "sh"}

// With no kubeconfig the binary uses the pod's service account. The test
// installs the operator's own chart (its RBAC and ConfigMap), gives the
// binary the chart's service account token, CA and namespace where a pod
// has them and KUBERNETES_SERVICE_HOST/PORT, the chart's environment, a
// read-only root and the chart's emptyDir volumes, and runs the examples:
// they converge with the chart's RBAC (a hook writing only to its temp
// files succeeds), and the chart's own release is left alone.
func TestInClusterConfigWithTheChartsServiceAccount(t *testing.T) {
	root, ns := examples(t), kube.Namespace(t)
	// The chart grants least privilege: the modules' rules are what
	// `addon-operator rbac` computes for them. It guards the port
	// (httpAuth); the test reads /queue as a Prometheus bound to the
	// chart's metrics-reader ClusterRole would.
	installChart(t, ns, map[string]any{"config": exampleConfig(t, root), "rbac": computedRBACValues(t, root, ns, "ao"),
		"metricsReader": map[string]any{"create": true,
			"subjects": []any{map[string]any{"kind": "ServiceAccount", "name": "prometheus", "namespace": ns}}}})
	client := kube.Client(t)
	reader := scenario.ServiceAccountToken(t, client, ns, "prometheus")
	scenario.WaitAllowed(t, client, ns, "prometheus", "/queue")
	container, emptyDirs := chartContainer(t, client, ns)
	saDir := serviceAccountFiles(t, client, ns, chartServiceAccount(t, client, ns))
	host, err := url.Parse(kube.Config(t).Host)
	if err != nil {
		t.Fatal(err)
	}
	env := append(chartEnv(container), "KUBE_CONFIG=", "KUBECONFIG=", "SA_DIR="+saDir,
		"EMPTY_DIRS="+strings.Join(emptyDirs, " "), "MODULES_DIR=/run/host"+filepath.Join(root, "modules"),
		"GLOBAL_HOOKS_DIR=/run/host"+filepath.Join(root, "global-hooks"),
		"KUBERNETES_SERVICE_HOST="+host.Hostname(), "KUBERNETES_SERVICE_PORT="+host.Port())
	op := launchOperator(t, inPod, root, ns, env...)
	op.token = reader
	op.waitReady(t)
	if code, _ := op.getAs(t, "/queue", ""); code != 401 {
		t.Fatalf("the chart's port answered an anonymous /queue with %d, want 401", code)
	}
	op.waitIdle(t)
	if n := op.count("Kubernetes API", map[string]any{"from": "in-cluster service account"}); n != 1 {
		t.Fatalf("the operator did not use the in-cluster config\n%s", op.logText())
	}
	revisions := releaseRevisions(t, ns)
	if _, ok := revisions["ao"]; !ok {
		t.Fatalf("the chart's own release was purged: %v", revisions)
	}
	if len(revisions) < 2 {
		t.Fatalf("no module release installed: %v", revisions)
	}
	cm, err := client.CoreV1().ConfigMaps(ns).Get(context.Background(), "echo-server", metav1.GetOptions{})
	if err != nil || cm.Data["computedBy"] != "hooks/compute.sh" {
		t.Fatalf("echo-server's beforeHelm hook did not patch its values through its temp files: %v %v\n%s", cm.Data, err, op.logText())
	}
}

// chartContainer is the container of the chart's Deployment and the mount
// paths of its emptyDir volumes.
func chartContainer(t *testing.T, client kubernetes.Interface, ns string) (corev1.Container, []string) {
	t.Helper()
	dep, err := client.AppsV1().Deployments(ns).Get(context.Background(), "ao", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	empty := map[string]bool{}
	for _, v := range dep.Spec.Template.Spec.Volumes {
		empty[v.Name] = v.EmptyDir != nil
	}
	container := dep.Spec.Template.Spec.Containers[0]
	var paths []string
	for _, m := range container.VolumeMounts {
		if empty[m.Name] {
			paths = append(paths, m.MountPath)
		}
	}
	if sc := container.SecurityContext; sc == nil || sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem {
		t.Fatalf("the chart's container has no read-only root filesystem: %+v", sc)
	}
	return container, paths
}

// chartEnv is the chart's literal environment, less what the test sets for
// its own run: the modules' paths inside the image and the listen port.
func chartEnv(c corev1.Container) []string {
	var env []string
	for _, e := range c.Env {
		switch e.Name {
		case "MODULES_DIR", "GLOBAL_HOOKS_DIR", "ADDON_OPERATOR_LISTEN_PORT":
			continue
		}
		if e.ValueFrom == nil {
			env = append(env, e.Name+"="+e.Value)
		}
	}
	return env
}

// exampleConfig is examples/configmap.yaml's data, as chart values.
func exampleConfig(t *testing.T, root string) map[string]any {
	t.Helper()
	out := map[string]any{}
	for k, v := range exampleConfigMap(t, root).Data {
		out[k] = v
	}
	return out
}

// chartServiceAccount is the service account of the chart's Deployment.
func chartServiceAccount(t *testing.T, client kubernetes.Interface, ns string) string {
	t.Helper()
	dep, err := client.AppsV1().Deployments(ns).Get(context.Background(), "ao", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return dep.Spec.Template.Spec.ServiceAccountName
}

// serviceAccountFiles writes token, ca.crt and namespace for the service
// account into a directory, as the kubelet mounts them into a pod.
func serviceAccountFiles(t *testing.T, client kubernetes.Interface, ns, sa string) string {
	t.Helper()
	expire := int64(3600)
	tr, err := client.CoreV1().ServiceAccounts(ns).CreateToken(context.Background(), sa,
		&authv1.TokenRequest{Spec: authv1.TokenRequestSpec{ExpirationSeconds: &expire}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("token for service account %s: %v", sa, err)
	}
	ca := kube.Config(t).CAData
	if len(ca) == 0 {
		if ca, err = os.ReadFile(kube.Config(t).CAFile); err != nil {
			t.Fatal(err)
		}
	}
	dir := t.TempDir()
	for name, data := range map[string][]byte{"token": []byte(tr.Status.Token), "ca.crt": ca, "namespace": []byte(ns)} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
