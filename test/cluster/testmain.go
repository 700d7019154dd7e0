package cluster

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

// EnvKubeconfig names the variable through which `testcluster exec` hands one
// shared cluster to every test binary of a `go test ./...` run.
const EnvKubeconfig = "TESTCLUSTER_KUBECONFIG"

// Harness is the cluster a test binary uses: shared (from EnvKubeconfig) or
// its own, started by Main and stopped when the tests end.
type Harness struct {
	kubeconfig string
	ownDir     string // set when this binary started the cluster itself
}

// Main runs a package's tests against a real cluster and exits. Call it
// from TestMain:
//
//	var kube *cluster.Harness
//	func TestMain(m *testing.M) { cluster.Main(m, &kube) }
//
// It reuses the cluster named by TESTCLUSTER_KUBECONFIG, or builds (if
// needed) and starts a private one, and stops it afterwards, checking that
// no server process is left.
func Main(m *testing.M, h **Harness) {
	harness, err := setUp()
	if err != nil {
		fmt.Fprintln(os.Stderr, "testcluster:", err)
		os.Exit(1)
	}
	*h = harness
	code := m.Run()
	if err := harness.tearDown(); err != nil {
		fmt.Fprintln(os.Stderr, "testcluster:", err)
		code = 1
	}
	os.Exit(code)
}

func setUp() (*Harness, error) {
	if kc := os.Getenv(EnvKubeconfig); kc != "" {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := checkReady(ctx, kc); err != nil {
			return nil, fmt.Errorf("shared cluster %s=%s is not ready: %w", EnvKubeconfig, kc, err)
		}
		return &Harness{kubeconfig: kc}, nil
	}
	dir, err := os.MkdirTemp("", "testcluster-")
	if err != nil {
		return nil, fmt.Errorf("cluster dir: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	c, err := Start(ctx, dir, Options{DieWithParent: true, Log: os.Stderr})
	if err != nil {
		return nil, err
	}
	return &Harness{kubeconfig: c.Kubeconfig, ownDir: dir}, nil
}

// tearDown stops a private cluster and proves that nothing of it is left.
func (h *Harness) tearDown() error {
	if h.ownDir == "" {
		return nil
	}
	if err := Stop(h.ownDir); err != nil {
		return err
	}
	for _, s := range []server{etcdServer(h.ownDir), apiServer(h.ownDir)} {
		if pid, ok := s.running(); ok {
			return fmt.Errorf("%s (pid %d) outlived the tests", s.name, pid)
		}
	}
	return os.RemoveAll(h.ownDir)
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
	name := namespaceName(t.Name())
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: name}}
	created, err := client.CoreV1().Namespaces().Create(context.Background(), ns, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("create namespace: %v", err)
	}
	t.Cleanup(func() {
		err := client.CoreV1().Namespaces().Delete(context.Background(), created.Name, metav1.DeleteOptions{})
		if err != nil {
			t.Errorf("delete namespace %s: %v", created.Name, err)
		}
	})
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

// Private starts a cluster of the test's own in a temp dir (for a test
// that stops or restarts its servers, which the shared one must not see)
// and stops it at the end. It returns the cluster, its dir and a client
// config.
func Private(t testing.TB) (*Cluster, string, *rest.Config) {
	t.Helper()
	return private(t, "a private cluster", 5*time.Minute, Start)
}

// PrivateNode is Private with a node (StartWithNode): pods are scheduled
// and run. Its start costs seconds more than Private's, so only tests that
// need running pods take it.
func PrivateNode(t testing.TB) (*Cluster, string, *rest.Config) {
	t.Helper()
	return private(t, "a private cluster with a node", 10*time.Minute, StartWithNode)
}

// private starts a cluster with start in a temp dir, within limit, and
// stops it at the end of the test.
func private(t testing.TB, what string, limit time.Duration,
	start func(context.Context, string, Options) (*Cluster, error)) (*Cluster, string, *rest.Config) {
	t.Helper()
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	c, err := start(ctx, dir, Options{DieWithParent: true})
	if err != nil {
		t.Fatalf("start %s: %v", what, err)
	}
	t.Cleanup(func() {
		if err := Stop(dir); err != nil {
			t.Errorf("stop %s: %v", what, err)
		}
	})
	cfg, err := RestConfig(c.Kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	return c, dir, cfg
}

// PrivateNamespace is Private with namespace ns created in the cluster; it
// returns the cluster, a client config and a clientset.
func PrivateNamespace(t testing.TB, ns string) (*Cluster, *rest.Config, kubernetes.Interface) {
	t.Helper()
	c, _, cfg := Private(t)
	client := kubernetes.NewForConfigOrDie(cfg)
	namespace := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}
	if _, err := client.CoreV1().Namespaces().Create(context.Background(), namespace, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create namespace %s: %v", ns, err)
	}
	return c, cfg, client
}
