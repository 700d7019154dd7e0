package cluster

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// apiArgsFile records the apiserver's arguments, so that it can be started
// again on the same port, etcd and credentials.
const apiArgsFile = "kube-apiserver.args"

func writeArgs(dir string, args []string) error {
	if err := os.WriteFile(filepath.Join(dir, apiArgsFile), []byte(strings.Join(args, "\n")+"\n"), 0o644); err != nil {
		return fmt.Errorf("record apiserver arguments: %w", err)
	}
	return nil
}

func readArgs(dir string) ([]string, error) {
	data, err := os.ReadFile(filepath.Join(dir, apiArgsFile))
	if err != nil {
		return nil, fmt.Errorf("apiserver arguments of %s: %w", dir, err)
	}
	return strings.Split(strings.TrimSpace(string(data)), "\n"), nil
}

// StopAPIServer stops the cluster's kube-apiserver and leaves etcd running:
// clients see the connection refused until StartAPIServer.
func (c *Cluster) StopAPIServer() error {
	return apiServer(c.Dir).stop(15 * time.Second)
}

// StartAPIServer starts the kube-apiserver again with the arguments it first
// ran with (same port, etcd, certificate and credentials, so existing
// kubeconfigs and tokens keep working) and returns once /readyz answers 200.
// A restarted apiserver dies with the process that restarts it when the
// cluster was started with DieWithParent.
func (c *Cluster) StartAPIServer(ctx context.Context) error {
	api := apiServer(c.Dir)
	if pid, up := api.running(); up {
		return fmt.Errorf("kube-apiserver of %s already runs (pid %d)", c.Dir, pid)
	}
	if _, up := etcdServer(c.Dir).running(); !up {
		return fmt.Errorf("etcd of %s is not running: %w", c.Dir, ErrStale)
	}
	args, err := readArgs(c.Dir)
	if err != nil {
		return err
	}
	bins, err := EnsureBinaries(ctx, nil)
	if err != nil {
		return err
	}
	cmd, err := api.start(bins.APIServer, args, c.dieWithParent)
	if err != nil {
		return err
	}
	return waitUntil(ctx, api, reaped(cmd), func() error { return checkReady(ctx, c.Kubeconfig) })
}

// RestartAPIServer stops the kube-apiserver and starts it again; etcd and
// its data stay, so objects and resource versions survive.
func (c *Cluster) RestartAPIServer(ctx context.Context) error {
	if err := c.StopAPIServer(); err != nil {
		return err
	}
	return c.StartAPIServer(ctx)
}
