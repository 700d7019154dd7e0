package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/client-go/tools/leaderelection"

	"github.com/addon-actors/addon-operator/chartrun"
	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/app"
	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/debugapi"
	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/httpapi"
	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/settings"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/supervision"
)

var errUsage = errors.New("usage")

// UnsupportedSettingMessage is the WARN record of a setting of the original
// that is set but not read here.
const UnsupportedSettingMessage = "setting of the original addon-operator not supported; ignored"

// start runs the operator until ctx is done (SIGTERM) or start-up fails.
func start(ctx context.Context, args []string, lookup func(string) (string, bool), stderr io.Writer) error {
	s, err := settings.Load(args, lookup, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return errUsage
	}
	if err != nil {
		return err
	}
	log, err := newLogger(s.LogLevel, s.LogType, s.LogNoTime, stderr)
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
	log.Info("Kubernetes API", "host", cfg.Host, "from", configSource(s), "qps", cfg.QPS, "burst", cfg.Burst)
	for _, u := range s.Unsupported {
		log.Warn(UnsupportedSettingMessage, "setting", u.Name, "value", u.Value, "instead", u.Why)
	}
	p := &process{s: s, log: log, cfg: cfg}
	return p.run(ctx)
}

// process is one operator process: its HTTP port serves from start to
// exit, the operator itself runs while this process may (always, or while
// it holds the leader lease).
type process struct {
	s       settings.Settings
	log     *slog.Logger
	cfg     *rest.Config
	current atomic.Pointer[app.App]
	// elector is the replica's candidacy in HA mode, once it has started.
	elector atomic.Pointer[leaderelection.LeaderElector]
	// reviews is the ModuleConfig webhook server of a replica in HA mode,
	// served while it follows and taken over by the operator when it leads
	// (nil: the operator serves its own).
	reviews *app.ModuleConfigReviews
}

func (p *process) run(ctx context.Context) error {
	httpCtx, stopHTTP := context.WithCancel(context.Background())
	defer stopHTTP()
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	guard, portMetrics, err := p.guard()
	if err != nil {
		return err
	}
	handler := p.handler(guard, portMetrics)
	httpDone := make(chan error, 1)
	go func() {
		err := httpapi.Serve(httpCtx, net.JoinHostPort(p.s.ListenAddress, strconv.Itoa(p.s.ListenPort)), handler, p.log)
		if err != nil {
			cancel() // the operator cannot run without its port
		}
		httpDone <- err
	}()
	var runErr error
	if p.s.HA {
		runErr = p.runWithLease(runCtx, portMetrics)
	} else {
		runErr = p.runOperator(runCtx, func() time.Duration { return p.s.ShutdownGrace })
	}
	stopHTTP()
	return errors.Join(runErr, <-httpDone)
}

// handler serves the running operator, or not-ready while there is none
// (a follower, or before start); guard, if set, guards what is not a probe;
// /metrics serves own besides the operator's registry.
func (p *process) handler(guard func(http.Handler) http.Handler, own prometheus.Gatherer) http.Handler {
	return httpapi.NewHandler(httpapi.Options{Guard: guard,
		Ready: func() bool { a := p.current.Load(); return a != nil && a.Board.Ready() },
		// A follower answers with the leader's readiness, as the
		// original's does (UPSTREAM §4), on its own port number.
		Leader: p.leader, LeaderPort: p.s.ListenPort,
		Queue: func() messages.QueueSnapshot {
			if a := p.current.Load(); a != nil {
				return a.Board.Queues()
			}
			return messages.QueueSnapshot{}
		},
		Registry: prometheus.Gatherers{own, prometheus.GathererFunc(func() ([]*dto.MetricFamily, error) {
			if a := p.current.Load(); a != nil {
				return a.Registry.Gather()
			}
			return nil, nil
		})},
		HookRegistry: prometheus.GathererFunc(func() ([]*dto.MetricFamily, error) {
			if a := p.current.Load(); a != nil {
				return a.HookRegistry.Gather()
			}
			return nil, nil
		}),
		Now: supervision.RealClock{}.Now,
	})
}

// runOperator starts the operator and its debug socket, and stops them
// when ctx is done, giving running work grace() to finish.
func (p *process) runOperator(ctx context.Context, grace func() time.Duration) error {
	a, err := startApp(p.s, p.cfg, p.log, p.reviews)
	if err != nil {
		return err
	}
	p.current.Store(a)
	debugCtx, stopDebug := context.WithCancel(context.Background())
	defer stopDebug()
	debug := debugapi.NewHandler(debugapi.Options{Board: a.Board, Inspector: a.System.Inspector, Render: a.Render,
		Plan: a.Plan})
	go func() {
		// The debug socket is a convenience: the operator runs without it.
		if err := debugapi.Serve(debugCtx, p.s.DebugSocket, debug, p.log); err != nil {
			p.log.Warn("debug API not available", "err", err)
		}
	}()
	runErr := a.Wait(ctx)
	g := grace()
	p.log.Info("stopping", "grace", g)
	stopErr := a.Stop(g)
	p.current.Store(nil)
	return errors.Join(runErr, stopErr)
}

// startApp starts the operator; reviews, when set, is the process's
// ModuleConfig webhook server, which the operator takes over.
func startApp(s settings.Settings, cfg *rest.Config, log *slog.Logger, reviews *app.ModuleConfigReviews) (*app.App, error) {
	releaser, err := chartrun.NewReleaser(cfg, s.Namespace, chartrun.Options{Log: log.With("component", "helm"),
		IgnoreRelease: s.HelmIgnore, Clock: supervision.RealClock{}, MaxHistory: s.Helm.HistoryMax, Timeout: s.Helm.Timeout})
	if err != nil {
		return nil, err
	}
	c := appConfig(s, cfg, log)
	c.Helm, c.ModuleConfigReviews = app.ChartHelm{R: releaser}, reviews
	return app.Start(c)
}

// appConfig is the operator's configuration of settings s (without helm).
func appConfig(s settings.Settings, cfg *rest.Config, log *slog.Logger) app.Config {
	return app.Config{
		ModulesDirs: s.ModulesDirs, GlobalHooksDir: s.GlobalHooksDir, Namespace: s.Namespace, ConfigMap: s.ConfigMap,
		TmpDir: s.TmpDir, Environ: os.Environ(), EnvAllowlist: s.HookEnvAllowlist, Policy: s.Policy,
		IgnoreRelease: s.HelmIgnore, MetricsPrefix: s.MetricsPrefix, Rest: cfg,
		Log: log, Clock: supervision.RealClock{}, CheckInterval: s.CheckInterval, Drift: s.Drift,
		WaitReady: s.WaitReady, WaitReadyTimeout: s.WaitReadyTimeout, Remediation: s.Remediation,
		ModulesCheckInterval: s.ModulesCheckInterval, Hooks: s.Hooks, HookFiles: s.HookFiles, ParallelModuleRuns: s.ParallelModuleRuns,
		HookConfigConcurrency: s.HookConfigConcurrency, UnnumberedModulesOrder: s.UnnumberedModulesOrder,
		CRDFilterPrefixes: s.CRDFilterPrefixes, CRDExtraLabels: s.CRDExtraLabels,
		ObjectPatcher: s.ObjectPatcher, Webhooks: s.Webhooks, ModuleConfigWebhook: s.ModuleConfigWebhook,
		ModuleObjects: s.ModuleObjects, ModuleConfigs: s.ModuleConfigs,
	}
}

// restConfig is the kubeconfig's (KUBE_CONFIG, KUBE_CONTEXT) or, with none,
// the pod's service account; QPS and burst applied.
func restConfig(s settings.Settings) (*rest.Config, error) {
	var cfg *rest.Config
	var err error
	switch {
	case s.KubeConfig == "" && s.KubeServer != "":
		cfg = &rest.Config{Host: s.KubeServer}
	case s.KubeConfig == "":
		cfg, err = rest.InClusterConfig()
		if err != nil {
			return nil, fmt.Errorf("no KUBE_CONFIG given and not in a cluster: %w", err)
		}
	default:
		rules := &clientcmd.ClientConfigLoadingRules{ExplicitPath: s.KubeConfig}
		overrides := &clientcmd.ConfigOverrides{CurrentContext: s.KubeContext}
		overrides.ClusterInfo.Server = s.KubeServer
		cfg, err = clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, overrides).ClientConfig()
		if err != nil {
			return nil, fmt.Errorf("kubeconfig %s: %w", s.KubeConfig, err)
		}
	}
	cfg.QPS, cfg.Burst = s.KubeQPS, s.KubeBurst
	return cfg, nil
}

// dropTime leaves the time out of log records (LOG_NO_TIME).
func dropTime(groups []string, a slog.Attr) slog.Attr {
	if len(groups) == 0 && a.Key == slog.TimeKey {
		return slog.Attr{}
	}
	return a
}

// configSource names where the API connection comes from, for the log.
func configSource(s settings.Settings) string {
	switch {
	case s.KubeConfig == "" && s.KubeServer != "":
		return "KUBE_SERVER " + s.KubeServer + " (no credentials)"
	case s.KubeConfig == "":
		return "in-cluster service account"
	}
	return "kubeconfig " + s.KubeConfig
}

func newLogger(level, kind string, noTime bool, w io.Writer) (*slog.Logger, error) {
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("LOG_LEVEL=%q: %w", level, err)
	}
	opts := &slog.HandlerOptions{Level: lv}
	if noTime {
		opts.ReplaceAttr = dropTime
	}
	if kind == "text" {
		return slog.New(slog.NewTextHandler(w, opts)), nil
	}
	return slog.New(slog.NewJSONHandler(w, opts)), nil
}
