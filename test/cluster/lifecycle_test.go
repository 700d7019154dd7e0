package cluster_test

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/test/cluster"
	"github.com/addon-actors/addon-operator/test/proc"
)

// Start on a dir that already runs a ready cluster reuses it; Stop leaves
// no server process; a dir with PID files of dead processes starts afresh;
// a dir where only etcd survived is refused with ErrStale until stopped.
func TestStartReuseStaleAndStop(t *testing.T) {
	dir := t.TempDir()
	ctx := cluster.TestContext(t, 5*time.Minute)
	opts := cluster.Options{DieWithParent: true}
	t.Cleanup(func() { _ = cluster.Stop(dir) })

	first, err := cluster.Start(ctx, dir, opts)
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	second, err := cluster.Start(ctx, dir, opts)
	if err != nil || !second.Reused || second.Kubeconfig != first.Kubeconfig {
		t.Fatalf("second start = %+v, %v; want the running cluster reused", second, err)
	}

	etcdPID, apiPID := readPID(t, dir, "etcd"), readPID(t, dir, "kube-apiserver")
	if err := syscall.Kill(apiPID, syscall.SIGKILL); err != nil {
		t.Fatalf("kill apiserver: %v", err)
	}
	waitProcessGone(t, apiPID)
	if _, err := cluster.Start(ctx, dir, opts); !errors.Is(err, cluster.ErrStale) {
		t.Fatalf("start with only etcd running: err = %v, want ErrStale", err)
	}

	if err := cluster.Stop(dir); err != nil {
		t.Fatalf("stop: %v", err)
	}
	waitProcessGone(t, etcdPID)
	if err := cluster.Stop(dir); err != nil {
		t.Fatalf("stop with nothing running: %v", err)
	}

	// A killed run leaves PID files behind; their processes are gone.
	for _, name := range []string{"etcd", "kube-apiserver"} {
		if err := os.WriteFile(filepath.Join(dir, name+".pid"), []byte(strconv.Itoa(etcdPID)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	third, err := cluster.Start(ctx, dir, opts)
	if err != nil || third.Reused {
		t.Fatalf("start over stale pid files = %+v, %v; want a fresh cluster", third, err)
	}
	if err := cluster.Stop(dir); err != nil {
		t.Fatalf("final stop: %v", err)
	}
}

func readPID(t *testing.T, dir, name string) int {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, name+".pid"))
	if err != nil {
		t.Fatalf("pid file: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatalf("pid file %s: %v", name, err)
	}
	return pid
}

// waitProcessGone waits on a pidfd for pid to exit (a zombie has exited).
func waitProcessGone(t *testing.T, pid int) {
	t.Helper()
	if !proc.Exited(t, pid, 20*time.Second) {
		t.Fatalf("process %d still running after 20s", pid)
	}
}
