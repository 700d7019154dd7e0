package cluster

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

// Harness is the cluster a test binary uses: shared (from EnvKubeconfig) or
// its own, started by Main and stopped when the tests end.
type Harness struct {
	kubeconfig string
	ownDir     string // set when this binary started the cluster itself
}

// Kubeconfig is the path of the cluster's kubeconfig.
func (h *Harness) Kubeconfig() string { return h.kubeconfig }

// Config returns a fresh rest config for the cluster.
func (h *Harness) Config(t testing.TB) *rest.Config {
	t.Helper()
	cfg, err := RestConfig(h.kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// Client returns a clientset for the cluster.
func (h *Harness) Client(t testing.TB) kubernetes.Interface {
	t.Helper()
	return kubernetes.NewForConfigOrDie(h.Config(t))
}

// Namespace creates a namespace unique to the test and deletes it when the
// test ends, so that tests sharing one cluster never see each other's objects.
func (h *Harness) Namespace(t testing.TB) string {
	t.Helper()
	client := h.Client(t)
	name := createNamespace(t, client, metav1.ObjectMeta{GenerateName: namespaceName(t.Name())})
	t.Cleanup(func() {
		err := client.CoreV1().Namespaces().Delete(context.Background(), name, metav1.DeleteOptions{})
		if err != nil {
			t.Errorf("delete namespace %s: %v", name, err)
		}
	})
	return name
}

// SecretVersions maps each Secret in ns that selector matches to its
// resourceVersion: any write to one of them shows as a change.
func (h *Harness) SecretVersions(t testing.TB, ns, selector string) map[string]string {
	t.Helper()
	list, err := h.Client(t).CoreV1().Secrets(ns).List(context.Background(), metav1.ListOptions{LabelSelector: selector})
	if err != nil {
		t.Fatalf("list the Secrets in %s matching %q: %v", ns, selector, err)
	}
	versions := make(map[string]string, len(list.Items))
	for _, s := range list.Items {
		versions[s.Name] = s.ResourceVersion
	}
	return versions
}

// createNamespace creates the namespace meta describes and returns its
// name.
func createNamespace(t testing.TB, client kubernetes.Interface, meta metav1.ObjectMeta) string {
	t.Helper()
	ns := &corev1.Namespace{ObjectMeta: meta}
	created, err := client.CoreV1().Namespaces().Create(context.Background(), ns, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("create namespace %s: %v", meta.Name+meta.GenerateName, err)
	}
	return created.Name
}

// namespaceName turns a test name into a valid GenerateName prefix.
func namespaceName(test string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(filepath.Base(test)) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	name := strings.Trim(b.String(), "-")
	if len(name) > 40 {
		name = name[:40]
	}
	return strings.TrimRight(name, "-") + "-"
}
