package cluster

import (
	"context"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

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
	createNamespace(t, client, metav1.ObjectMeta{Name: ns})
	return c, cfg, client
}

// Outage stops the kube-apiserver for at least d: it calls whileDown once
// the apiserver is stopped (for the checks a test makes during the outage),
// waits out the rest of d, starts the apiserver again and returns when it
// was ready. A failure to stop or start fails tb.
func (c *Cluster) Outage(tb testing.TB, ctx context.Context, d time.Duration, whileDown func()) time.Time {
	tb.Helper()
	if err := c.StopAPIServer(); err != nil {
		tb.Fatalf("stop apiserver: %v", err)
	}
	stopped := time.Now()
	if whileDown != nil {
		whileDown()
	}
	time.Sleep(d - time.Since(stopped)) // the outage itself
	if err := c.StartAPIServer(ctx); err != nil {
		tb.Fatalf("start apiserver: %v", err)
	}
	return time.Now()
}
