package cluster_test

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/test/cluster"
)

// A server that dies during start-up is reported with the tail of its log,
// and leaves nothing running behind.
func TestStartReportsCrashWithLogTail(t *testing.T) {
	bin := t.TempDir()
	writeScript(t, filepath.Join(bin, "etcd"), "echo 'etcdmain: cannot access data directory: disk on fire' >&2\nexit 3\n")
	writeScript(t, filepath.Join(bin, "kube-apiserver"), "exit 1\n")
	t.Setenv("TESTCLUSTER_BIN_DIR", bin)

	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := cluster.Start(ctx, dir, cluster.Options{DieWithParent: true})
	if err == nil {
		t.Fatal("start with a crashing etcd succeeded")
	}
	for _, want := range []string{"etcd exited during start-up", "exit status 3", "disk on fire", filepath.Join(dir, "etcd.log")} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
	if err := cluster.Stop(dir); err != nil {
		t.Fatalf("stop after failed start: %v", err)
	}
}

// Binaries that are missing give an error naming the file.
func TestMissingBinariesNamed(t *testing.T) {
	bin := t.TempDir()
	t.Setenv("TESTCLUSTER_BIN_DIR", bin)
	_, err := cluster.EnsureBinaries(context.Background(), nil)
	if err == nil || !strings.Contains(err.Error(), filepath.Join(bin, "etcd")) {
		t.Fatalf("EnsureBinaries with an empty bin dir: err = %v, want one naming %s", err, filepath.Join(bin, "etcd"))
	}
}

func writeScript(t *testing.T, path, body string) {
	t.Helper()
	if err := os.WriteFile(path, []byte("#!/usr/bin/env bash\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
}

// A port taken by someone else is reported and Start retries on free ports.
func TestTakenPortFallsBackToFreePort(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	port := taken.Addr().(*net.TCPAddr).Port

	dir := t.TempDir()
	var log strings.Builder
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	t.Cleanup(func() { _ = cluster.Stop(dir) })
	c, err := cluster.Start(ctx, dir, cluster.Options{DieWithParent: true, APIServerPort: port, Log: &log})
	if err != nil {
		t.Fatalf("start with a taken port: %v", err)
	}
	cfg, err := cluster.RestConfig(c.Kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasSuffix(cfg.Host, ":"+strconv.Itoa(port)) {
		t.Fatalf("apiserver at %s, the taken port", cfg.Host)
	}
	if !strings.Contains(log.String(), "port was taken") {
		t.Fatalf("log does not report the taken port:\n%s", log.String())
	}
	if err := cluster.Stop(dir); err != nil {
		t.Fatalf("stop: %v", err)
	}
}
