package e2e_test

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	authv1 "k8s.io/api/authentication/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// inPod is the command prefix that runs the binary as in a pod: in a
// private mount namespace (unshare, no root needed where user namespaces
// are allowed) with a tmpfs on /run holding the service account's files
// copied from $SA_DIR, the place rest.InClusterConfig reads them from.
var inPod = []string{"unshare", "--user", "--map-root-user", "--mount", "sh", "-c",
	`mount -t tmpfs tmpfs /run && mkdir -p /run/secrets/kubernetes.io/serviceaccount && ` +
		`cp "$SA_DIR"/* /run/secrets/kubernetes.io/serviceaccount/ && exec "$@"`, "sh"}

// With no kubeconfig the binary uses the pod's service account. The test
// installs the operator's own chart (its RBAC and ConfigMap), gives the
// binary the chart's service account token, CA and namespace where a pod
// has them and KUBERNETES_SERVICE_HOST/PORT, and runs the examples: they
// converge with the chart's RBAC, and the chart's own release is left alone.
func TestInClusterConfigWithTheChartsServiceAccount(t *testing.T) {
	root, ns := examples(t), kube.Namespace(t)
	installChart(t, ns, map[string]any{"config": exampleConfig(t, root)})
	client := kubernetes.NewForConfigOrDie(kube.Config(t))
	saDir := serviceAccountFiles(t, client, ns, chartServiceAccount(t, client, ns))
	host, err := url.Parse(kube.Config(t).Host)
	if err != nil {
		t.Fatal(err)
	}
	op := launchOperator(t, inPod, root, ns, "KUBE_CONFIG=", "KUBECONFIG=", "SA_DIR="+saDir,
		"KUBERNETES_SERVICE_HOST="+host.Hostname(), "KUBERNETES_SERVICE_PORT="+host.Port(), "HELM_IGNORE_RELEASE=ao")
	op.waitReady(t)
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
