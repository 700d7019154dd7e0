// Command testcluster builds, starts and stops the test cluster of package
// cluster: a real etcd and kube-apiserver on loopback.
//
//	testcluster build                 build the server binaries (cached)
//	testcluster start [--node] DIR    start in DIR, write DIR/kubeconfig, return once ready;
//	                                  --node adds a node that schedules and runs pods
//	testcluster stop DIR              stop what DIR records (the node too); exit 0 when nothing is left
//	testcluster exec [--node] DIR -- CMD ARGS
//	                                  start (or reuse) in DIR, run CMD with
//	                                  TESTCLUSTER_KUBECONFIG set, then stop what it started
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"syscall"

	"github.com/addon-actors/addon-operator/test/cluster"
)

const usage = "usage: testcluster build | start [--node] DIR | stop DIR | exec [--node] DIR -- CMD [ARGS...]"

func main() {
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code, err := run(ctx, os.Args[1:])
	cancel()
	if err != nil {
		fmt.Fprintln(os.Stderr, "testcluster:", err)
		if code == 0 {
			code = 1
		}
	}
	os.Exit(code)
}

func run(ctx context.Context, args []string) (int, error) {
	if len(args) == 0 {
		return 2, errors.New(usage)
	}
	start := cluster.Start
	if len(args) > 1 && (args[0] == "start" || args[0] == "exec") && args[1] == "--node" {
		start = cluster.StartWithNode
		args = append([]string{args[0]}, args[2:]...)
	}
	switch {
	case args[0] == "build" && len(args) == 1:
		_, err := cluster.EnsureBinaries(ctx, os.Stderr)
		return 0, err
	case args[0] == "start" && len(args) == 2:
		c, err := start(ctx, args[1], cluster.Options{Log: os.Stderr})
		if err != nil {
			return 1, err
		}
		if c.Reused {
			fmt.Fprintln(os.Stderr, "testcluster: already running and ready in", c.Dir)
		}
		fmt.Println(c.Kubeconfig)
		return 0, nil
	case args[0] == "stop" && len(args) == 2:
		return 0, cluster.Stop(args[1])
	case args[0] == "exec" && len(args) >= 4 && args[2] == "--":
		return execWith(ctx, start, args[1], args[3:])
	}
	return 2, errors.New(usage)
}

type startFunc func(context.Context, string, cluster.Options) (*cluster.Cluster, error)

// execWith runs a command against the cluster in dir, and stops the cluster
// afterwards unless it was already running before.
func execWith(ctx context.Context, start startFunc, dir string, argv []string) (int, error) {
	c, err := start(ctx, dir, cluster.Options{Log: os.Stderr})
	if err != nil {
		return 1, err
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Env = append(os.Environ(), cluster.EnvKubeconfig+"="+c.Kubeconfig)
	runErr := cmd.Run()
	code := 0
	if runErr != nil {
		code = 1
		var exit *exec.ExitError
		if errors.As(runErr, &exit) {
			code, runErr = exit.ExitCode(), nil
		}
	}
	if !c.Reused {
		if err := cluster.Stop(dir); err != nil {
			return 1, errors.Join(runErr, err)
		}
	}
	return code, runErr
}
