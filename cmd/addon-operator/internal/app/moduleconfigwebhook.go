package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/moduleconfig"
	"github.com/addon-actors/addon-operator/webhook"
	"github.com/addon-actors/addon-operator/webhook/configreview"
	"github.com/addon-actors/addon-operator/webhook/register"
	"github.com/addon-actors/addon-operator/webhook/server"
)

// registerTimeout bounds the registration of the ModuleConfig webhook at
// start-up.
const registerTimeout = 30 * time.Second

// ModuleConfigReviews serves the ModuleConfig validating webhook on its
// own admission server. Every replica serves it (the apiserver may reach
// any of them behind the Service); only the one that runs the operator
// (the leader, or the only replica) registers it (<prefix>-moduleconfigs),
// as it alone writes any object of the operator's. Its catalog is replaced
// whenever the running operator reads the modules dirs again. The
// configuration is left in place at shutdown: in a rolling update the old
// pod stops after the new one registered it, and deleting it then would
// leave the new pod unregistered (docs/MODULECONFIG.md).
type ModuleConfigReviews struct {
	global  atomic.Pointer[moduleconfig.Target]
	catalog atomic.Pointer[configreview.Catalog]
	binding webhook.Admission
	serving bool
	log     *slog.Logger
	stopped context.CancelFunc
	running sync.WaitGroup
}

// ServeModuleConfigReviews serves the reviews of a replica that may not
// run the operator (HA mode: a follower serves them too), against the
// modules dirs as they are now (a module that cannot be read is not in
// the catalog: reviews of it warn that it is unknown). The operator, when
// this replica comes to run it, takes it over (Config.ModuleConfigReviews):
// it replaces the catalog with its own reading and registers the webhook.
// Stop it when the process ends.
func ServeModuleConfigReviews(cfg Config, reg prometheus.Registerer) *ModuleConfigReviews {
	log := cfg.Log.With("component", "moduleconfig-webhook")
	common, err := layout.ReadCommonValues(cfg.ModulesDirs)
	if err != nil {
		log.Warn("ModuleConfig webhook: modules dirs' values.yaml not read; reviews check without it", "err", err)
	}
	defs, _ := layout.ScanWith(cfg.ModulesDirs, common, cfg.scanOptions())
	schemas, chain, err := readGlobalOpenAPI(cfg.GlobalHooksDir)
	if err != nil {
		log.Warn("ModuleConfig webhook: global openapi not read; global ModuleConfigs are checked without it", "err", err)
	}
	return serveModuleConfigReviews(cfg, reg, defs, moduleconfig.GlobalTarget(schemasOrNil(schemas), common, chain))
}

// serveModuleConfigReviews builds the catalog of defs and global and,
// when the server's certificate, key and CA are there, serves it; without
// them, or when it cannot listen, only the read side validates (logged
// once).
func serveModuleConfigReviews(cfg Config, reg prometheus.Registerer, defs []layout.Definition,
	global moduleconfig.Target) *ModuleConfigReviews {
	s := cfg.ModuleConfigWebhook
	w := &ModuleConfigReviews{stopped: func() {}, log: cfg.Log.With("component", "moduleconfig-webhook"),
		binding: configreview.Binding(admissionregistrationv1.FailurePolicyType(s.FailurePolicy))}
	w.adopt(defs, global)
	if missing := missingFile(s.Server.CertFile, s.Server.KeyFile, s.Server.CAFile); missing != "" {
		w.log.Info("ModuleConfig webhook not served: no certificate; ModuleConfigs are validated on read only", "missing", missing,
			"hint", "mount the certificate, key and CA (ADDON_OPERATOR_MODULECONFIG_WEBHOOK_SERVER_CERT, _SERVER_KEY, _CA, else VALIDATING_WEBHOOK_*)")
		return w
	}
	srv, err := w.server(cfg, reg)
	if err != nil {
		// Not fatal: the webhook is a first check, the read side the one
		// that counts; an upgrade must not stop an operator whose port is
		// taken.
		w.log.Error("ModuleConfig webhook not served; ModuleConfigs are validated on read only", "err", err)
		return w
	}
	ctx, cancel := context.WithCancel(context.Background())
	w.stopped, w.serving = cancel, true
	w.running.Go(func() {
		if err := srv.Serve(ctx); err != nil {
			w.log.Error("ModuleConfig webhook server stopped", "err", err)
		}
	})
	w.log.Info("ModuleConfig webhook server started", "address", srv.Addr().String(), "failurePolicy", s.FailurePolicy)
	return w
}

// server is the bounded admission server of hooks' webhooks
// (webhook/server), answering the binding with configreview, its metrics
// named <prefix>moduleconfig_webhook_*.
func (w *ModuleConfigReviews) server(cfg Config, reg prometheus.Registerer) (*server.Server, error) {
	d, err := server.NewDispatcher(server.Config{Runner: configreview.Runner{Catalog: w.catalog.Load}, Log: w.log,
		Metrics: reg, MetricsPrefix: cfg.MetricsPrefix + "moduleconfig_", MaxInFlight: cfg.Webhooks.MaxInFlight,
		MaxInFlightBytes: cfg.Webhooks.MaxInFlightBytes, AdmissionMaxBytes: cfg.Webhooks.AdmissionMaxBytes})
	if err != nil {
		return nil, fmt.Errorf("ModuleConfig webhook: %w", err)
	}
	d.Set(configreview.Owner, []webhook.Admission{w.binding}, nil)
	d.Ready(configreview.Owner, configreview.Hook)
	srv, err := server.New(cfg.ModuleConfigWebhook.Server, d.Admission(), w.log)
	if err != nil {
		return nil, fmt.Errorf("ModuleConfig webhook server: %w", err)
	}
	if err := srv.Listen(); err != nil {
		return nil, fmt.Errorf("ModuleConfig webhook server: %w", err)
	}
	return srv, nil
}

// register writes the ValidatingWebhookConfiguration <prefix>-moduleconfigs
// (written only when it differs) when the webhook is served; a failure
// leaves the read side alone to validate, logged at ERROR (a restart
// registers again).
func (w *ModuleConfigReviews) register(cfg Config, client kubernetes.Interface) {
	if !w.serving {
		return
	}
	if err := registerModuleConfigWebhook(cfg, client, w.binding); err != nil {
		w.log.Error("ModuleConfig webhook not registered; ModuleConfigs are validated on read only", "err", err)
		return
	}
	w.log.Info("ModuleConfig webhook registered", "configuration",
		register.ConfigurationName(cfg.Webhooks.Admission.ConfigurationName, configreview.Owner))
}

// registerModuleConfigWebhook writes the ValidatingWebhookConfiguration
// <prefix>-moduleconfigs (written only when it differs).
func registerModuleConfigWebhook(cfg Config, client kubernetes.Interface, binding webhook.Admission) error {
	s := cfg.ModuleConfigWebhook
	ca, err := os.ReadFile(s.Server.CAFile)
	if err != nil {
		return fmt.Errorf("ModuleConfig webhook CA bundle: %w", err)
	}
	endpoint := register.Endpoint{URL: s.URL, Namespace: cfg.Namespace, ServiceName: s.Server.ServiceName,
		Port: int32(s.ServicePort), CABundle: ca} //nolint:gosec // a port number, checked by settings
	ctx, cancel := context.WithTimeout(context.Background(), registerTimeout)
	defer cancel()
	reg := register.New(client, nil, cfg.Webhooks.Admission.ConfigurationName, endpoint)
	return reg.Apply(ctx, configreview.Owner, []webhook.Admission{binding})
}

// adopt sets the global values' target and the catalog of defs: the
// running operator's reading of the dirs replaces the one the reviews
// were served with.
func (w *ModuleConfigReviews) adopt(defs []layout.Definition, global moduleconfig.Target) {
	w.global.Store(&global)
	w.refresh(defs)
}

// refresh replaces the catalog with one of defs (the modules dirs read
// again); reviews in flight keep the one they read.
func (w *ModuleConfigReviews) refresh(defs []layout.Definition) {
	w.catalog.Store(configreview.NewCatalog(defs, w.global.Load()))
}

// Stop stops the server (reviews in flight get its grace).
func (w *ModuleConfigReviews) Stop() {
	w.stopped()
	w.running.Wait()
}

// missingFile names the first of files that does not exist ("" when all
// do).
func missingFile(files ...string) string {
	for _, f := range files {
		if _, err := os.Stat(f); errors.Is(err, os.ErrNotExist) {
			return f
		}
	}
	return ""
}

// takeModuleConfigReviews is the reviews of the operator, which registers
// them: the process's (cfg.ModuleConfigReviews), given the operator's
// reading of the dirs, or its own, served now (owned: the operator stops
// it).
func takeModuleConfigReviews(cfg Config, reg prometheus.Registerer, client kubernetes.Interface,
	read dirsRead) (w *ModuleConfigReviews, owned bool) {
	global := moduleconfig.GlobalTarget(schemasOrNil(read.globalSchemas), read.common, read.globalChain)
	if w, owned = cfg.ModuleConfigReviews, cfg.ModuleConfigReviews == nil; owned {
		w = serveModuleConfigReviews(cfg, reg, read.defs, global)
	} else {
		w.adopt(read.defs, global)
	}
	w.register(cfg, client)
	return w, owned
}
