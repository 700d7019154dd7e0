package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

const usage = `usage: addon-operator <command> [flags]

commands:
  start                      run the operator (settings from flags or environment; start --help lists them)
  queue list                 the queues of the running operator
  module list                modules with their state (-o wide: and a short WHY)
  module why NAME            the chain that decided a module's state: enabled layers, last run, helm, retry
  module values NAME         a module's config values and values (--global: the global ones)
  module render NAME         a module's manifests rendered with its current values
  hook snapshots HOOK        a hook's kubernetes snapshots (--module NAME for a module's hook)
  actors [--watch]           every actor: mailbox, messages, what it handles now, restarts
  hooks                      hook runs and failures
  plan -f FILE | --set k=v   what applying a ConfigMap would do, applying nothing (exit 0: no change, 2: changes, 1: invalid)
  config export              the ModuleConfigs equal to the ConfigMap (-f configmap.yaml, or the cluster's), for a migration
  rbac [--diff]              the ClusterRole and Roles the modules need, computed from what they declare (--diff: exit 0: nothing to add, 2: rules to add, 1: error)
  version                    print the version

The debug commands read the operator's socket ($DEBUG_UNIX_SOCKET); -o text|json|yaml.
`

func main() {
	tuneRegistry()
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// run dispatches a sub-command and returns the exit code.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var err error
	switch args[0] {
	case "plan":
		return planCLI(ctx, args[1:], os.LookupEnv, stdout, stderr)
	case "config":
		return configCLI(ctx, args[1:], os.LookupEnv, stdout, stderr)
	case "rbac":
		return rbacCLI(ctx, args[1:], os.LookupEnv, stdout, stderr)
	case "start":
		err = start(ctx, args[1:], os.LookupEnv, stderr)
	case "queue", "module", "hook", "actors", "hooks":
		err = debugCLI(ctx, args, os.LookupEnv, stdout, stderr)
	case "version":
		fmt.Fprintln(stdout, version)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
	default:
		fmt.Fprintf(stderr, "unknown command %q\n%s", args[0], usage)
		return 2
	}
	if errors.Is(err, errUsage) {
		fmt.Fprint(stderr, usage)
		return 2
	}
	if err != nil {
		fmt.Fprintln(stderr, "addon-operator:", err)
		return 1
	}
	return 0
}
