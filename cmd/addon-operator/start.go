package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"strconv"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/addon-actors/addon-operator/chartrun"
	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/app"
	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/debugapi"
	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/httpapi"
	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/settings"
	"github.com/addon-actors/addon-operator/supervision"
)

var errUsage = errors.New("usage")

// start runs the operator until ctx is done (SIGTERM) or start-up fails.
func start(ctx context.Context, args []string, lookup func(string) (string, bool), stderr io.Writer) error {
	s, err := settings.Load(args, lookup, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return errUsage
	}
	if err != nil {
		return err
	}
	log, err := newLogger(s.LogLevel, s.LogType, stderr)
	if err != nil {
		return err
	}
	stopProfiling, err := startProfiling(lookup)
	defer stopProfiling()
	if err != nil {
		return err
	}
	cfg, err := restConfig(s)
	if err != nil {
		return err
	}
	a, err := startApp(s, cfg, log)
	if err != nil {
		return err
	}
	return serve(ctx, s, a, log)
}

func startApp(s settings.Settings, cfg *rest.Config, log *slog.Logger) (*app.App, error) {
	releaser, err := chartrun.NewReleaser(cfg, s.Namespace, chartrun.Options{Log: log.With("component", "helm")})
	if err != nil {
		return nil, err
	}
	return app.Start(app.Config{
		ModulesDirs: s.ModulesDirs, GlobalHooksDir: s.GlobalHooksDir, Namespace: s.Namespace, ConfigMap: s.ConfigMap,
		TmpDir: s.TmpDir, Environ: os.Environ(), EnvAllowlist: s.HookEnvAllowlist, Policy: s.Policy,
		IgnoreRelease: s.HelmIgnore, MetricsPrefix: s.MetricsPrefix, Rest: cfg, Helm: app.ChartHelm{R: releaser},
		Log: log, Clock: supervision.RealClock{}, CheckInterval: s.CheckInterval,
	})
}

// serve runs the HTTP server beside the operator; on SIGTERM the actors
// stop (a running hook gets the grace period) and the server last.
func serve(ctx context.Context, s settings.Settings, a *app.App, log *slog.Logger) error {
	httpCtx, stopHTTP := context.WithCancel(context.Background())
	defer stopHTTP()
	waitCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	handler := httpapi.NewHandler(httpapi.Options{Ready: a.Board.Ready, Queue: a.Board.Queues,
		Registry: a.Registry, Now: supervision.RealClock{}.Now})
	httpDone := make(chan error, 1)
	go func() {
		err := httpapi.Serve(httpCtx, net.JoinHostPort(s.ListenAddress, strconv.Itoa(s.ListenPort)), handler, log)
		if err != nil {
			cancel() // the operator cannot run without its port
		}
		httpDone <- err
	}()
	debug := debugapi.NewHandler(debugapi.Options{Board: a.Board, Inspector: a.System.Inspector, Render: a.Render})
	go func() {
		// The debug socket is a convenience: the operator runs without it.
		if err := debugapi.Serve(httpCtx, s.DebugSocket, debug, log); err != nil {
			log.Warn("debug API not available", "err", err)
		}
	}()
	runErr := a.Wait(waitCtx)
	log.Info("stopping", "grace", s.ShutdownGrace)
	stopErr := a.Stop(s.ShutdownGrace)
	stopHTTP()
	return errors.Join(runErr, stopErr, <-httpDone)
}

// restConfig is the kubeconfig's (KUBE_CONFIG, KUBE_CONTEXT) or, with none,
// the pod's service account; QPS and burst applied.
func restConfig(s settings.Settings) (*rest.Config, error) {
	var cfg *rest.Config
	var err error
	if s.KubeConfig == "" {
		cfg, err = rest.InClusterConfig()
		if err != nil {
			return nil, fmt.Errorf("no KUBE_CONFIG given and not in a cluster: %w", err)
		}
	} else {
		rules := &clientcmd.ClientConfigLoadingRules{ExplicitPath: s.KubeConfig}
		overrides := &clientcmd.ConfigOverrides{CurrentContext: s.KubeContext}
		cfg, err = clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, overrides).ClientConfig()
		if err != nil {
			return nil, fmt.Errorf("kubeconfig %s: %w", s.KubeConfig, err)
		}
	}
	cfg.QPS, cfg.Burst = s.KubeQPS, s.KubeBurst
	return cfg, nil
}

func newLogger(level, kind string, w io.Writer) (*slog.Logger, error) {
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("LOG_LEVEL=%q: %w", level, err)
	}
	opts := &slog.HandlerOptions{Level: lv}
	if kind == "text" {
		return slog.New(slog.NewTextHandler(w, opts)), nil
	}
	return slog.New(slog.NewJSONHandler(w, opts)), nil
}
