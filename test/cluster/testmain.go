package cluster

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"
)

// EnvKubeconfig names the variable through which `testcluster exec` hands one
// shared cluster to every test binary of a `go test ./...` run.
const EnvKubeconfig = "TESTCLUSTER_KUBECONFIG"

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
