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

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/moduleconfig"
	mcconversion "github.com/addon-actors/addon-operator/moduleconfig/conversion"
	"github.com/addon-actors/addon-operator/values"
	"github.com/addon-actors/addon-operator/webhook"
	"github.com/addon-actors/addon-operator/webhook/configreview"
	"github.com/addon-actors/addon-operator/webhook/register"
	"github.com/addon-actors/addon-operator/webhook/server"
)

// registerTimeout bounds the registration of the ModuleConfig webhook at
// start-up.
const registerTimeout = 30 * time.Second

// moduleConfigWebhook serves the ModuleConfig validating webhook on its
// own admission server and registers it (<prefix>-moduleconfigs). Its
// catalog is replaced whenever the modules dirs are read again. The
// configuration is left in place at shutdown: in a rolling update the old
// pod stops after the new one registered it, and deleting it then would
// leave the new pod unregistered (docs/MODULECONFIG.md).
type moduleConfigWebhook struct {
	global  moduleconfig.Target
	catalog atomic.Pointer[configreview.Catalog]
	stopped context.CancelFunc
	running sync.WaitGroup
}

// startModuleConfigWebhook builds the catalog of defs and, when the
// server's certificate, key and CA are there, serves and registers the
// webhook; without them, or when it cannot listen or register, only the
// read side validates (logged once).
func startModuleConfigWebhook(cfg Config, a *App, client kubernetes.Interface, defs []layout.Definition,
	common values.Sections, globalSchemas values.Schemas, globalChain mcconversion.Chain) *moduleConfigWebhook {
	w := &moduleConfigWebhook{global: moduleconfig.GlobalTarget(globalSchemas, common, globalChain), stopped: func() {}}
	w.refresh(defs)
	log := cfg.Log.With("component", "moduleconfig-webhook")
	s := cfg.ModuleConfigWebhook
	if missing := missingFile(s.Server.CertFile, s.Server.KeyFile, s.Server.CAFile); missing != "" {
		log.Info("ModuleConfig webhook not served: no certificate; ModuleConfigs are validated on read only", "missing", missing,
			"hint", "mount the certificate, key and CA (ADDON_OPERATOR_MODULECONFIG_WEBHOOK_SERVER_CERT, _SERVER_KEY, _CA, else VALIDATING_WEBHOOK_*)")
		return w
	}
	binding := configreview.Binding(admissionregistrationv1.FailurePolicyType(s.FailurePolicy))
	srv, err := w.server(cfg, a, binding, log)
	if err != nil {
		// Not fatal: the webhook is a first check, the read side the one
		// that counts; an upgrade must not stop an operator whose port is
		// taken.
		log.Error("ModuleConfig webhook not served; ModuleConfigs are validated on read only", "err", err)
		return w
	}
	ctx, cancel := context.WithCancel(context.Background())
	w.stopped = cancel
	w.running.Go(func() {
		if err := srv.Serve(ctx); err != nil {
			log.Error("ModuleConfig webhook server stopped", "err", err)
		}
	})
	log.Info("ModuleConfig webhook server started", "address", srv.Addr().String(), "failurePolicy", s.FailurePolicy)
	if err := registerModuleConfigWebhook(cfg, client, binding); err != nil {
		// The read side still validates; a restart registers again.
		log.Error("ModuleConfig webhook not registered; ModuleConfigs are validated on read only", "err", err)
		return w
	}
	log.Info("ModuleConfig webhook registered", "configuration",
		register.ConfigurationName(cfg.Webhooks.Admission.ConfigurationName, configreview.Owner))
	return w
}

// server is the bounded admission server of hooks' webhooks
// (webhook/server), answering the binding with configreview, its metrics
// named <prefix>moduleconfig_webhook_*.
func (w *moduleConfigWebhook) server(cfg Config, a *App, binding webhook.Admission, log *slog.Logger) (*server.Server, error) {
	d, err := server.NewDispatcher(server.Config{Runner: configreview.Runner{Catalog: w.catalog.Load}, Log: log,
		Metrics: a.Registry, MetricsPrefix: cfg.MetricsPrefix + "moduleconfig_", MaxInFlight: cfg.Webhooks.MaxInFlight,
		MaxInFlightBytes: cfg.Webhooks.MaxInFlightBytes, AdmissionMaxBytes: cfg.Webhooks.AdmissionMaxBytes})
	if err != nil {
		return nil, fmt.Errorf("ModuleConfig webhook: %w", err)
	}
	d.Set(configreview.Owner, []webhook.Admission{binding}, nil)
	d.Ready(configreview.Owner, configreview.Hook)
	srv, err := server.New(cfg.ModuleConfigWebhook.Server, d.Admission(), log)
	if err != nil {
		return nil, fmt.Errorf("ModuleConfig webhook server: %w", err)
	}
	if err := srv.Listen(); err != nil {
		return nil, fmt.Errorf("ModuleConfig webhook server: %w", err)
	}
	return srv, nil
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

// refresh replaces the catalog with one of defs (the modules dirs read
// again); reviews in flight keep the one they read.
func (w *moduleConfigWebhook) refresh(defs []layout.Definition) {
	w.catalog.Store(configreview.NewCatalog(defs, &w.global))
}

// stop stops the server (reviews in flight get its grace).
func (w *moduleConfigWebhook) stop() {
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
