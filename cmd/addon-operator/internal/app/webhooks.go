package app

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"sync"

	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	"k8s.io/client-go/kubernetes"

	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/settings"
	"github.com/addon-actors/addon-operator/hookexec"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/webhook"
	"github.com/addon-actors/addon-operator/webhook/register"
	"github.com/addon-actors/addon-operator/webhook/server"
)

// webhooks serves the owners' webhook bindings: it implements
// worker.Webhooks (following the modules) and server.Runner (running a
// hook per review). Its servers start when the first owner registers.
type webhooks struct {
	cfg        settings.Webhooks
	namespace  string
	log        *slog.Logger
	board      *board.Board
	runner     *hookexec.Runner
	metrics    *metrics
	dispatcher *server.Dispatcher
	kube       kubernetes.Interface
	crds       apiextensionsclient.Interface
	work       context.Context
	mu         sync.Mutex
	owners     map[string]ownerWebhooks
	// serving are the servers started (admission, conversion), running
	// until stop.
	serving   map[string]bool
	stopServe context.CancelFunc
	serveCtx  context.Context
	running   sync.WaitGroup
}

// ownerWebhooks is what an owner registered: its hooks, their bindings,
// which hooks answer (ready), and whether these are conversions kept after
// the owner was disabled.
type ownerWebhooks struct {
	hooks      hookrun.HookSet
	admissions []webhook.Admission
	conversion []webhook.Conversion
	ready      map[string]bool
	kept       bool
}

func newWebhooks(cfg Config, a *App, m *metrics, kube kubernetes.Interface, work context.Context) (*webhooks, error) {
	crdClient, err := apiextensionsclient.NewForConfig(cfg.Rest)
	if err != nil {
		return nil, fmt.Errorf("apiextensions client: %w", err)
	}
	w := &webhooks{cfg: cfg.Webhooks, namespace: cfg.Namespace, log: cfg.Log.With("component", "webhooks"),
		board: a.Board, runner: a.Runner, metrics: m, kube: kube, crds: crdClient, work: work,
		owners: map[string]ownerWebhooks{}, serving: map[string]bool{}}
	w.serveCtx, w.stopServe = context.WithCancel(context.Background())
	w.dispatcher, err = server.NewDispatcher(server.Config{Runner: w, Log: w.log, Metrics: a.Registry,
		MetricsPrefix: cfg.MetricsPrefix, Concurrency: cfg.Webhooks.Concurrency, MaxInFlight: cfg.Webhooks.MaxInFlight,
		MaxInFlightBytes: cfg.Webhooks.MaxInFlightBytes, AdmissionMaxBytes: cfg.Webhooks.AdmissionMaxBytes, ConversionMaxBytes: cfg.Webhooks.ConversionMaxBytes})
	if err != nil {
		return nil, fmt.Errorf("webhook dispatcher: %w", err)
	}
	return w, nil
}

// Register implements worker.Webhooks.
func (w *webhooks) Register(ctx context.Context, owner string, hooks hookrun.HookSet) error {
	adm, conv := webhookBindings(owner, hooks)
	if missing := w.missingCertificates(len(adm) > 0, len(conv) > 0); missing != "" {
		// As the original, which serves none: the module runs, its webhook
		// bindings are not served until the certificates are there.
		w.log.Warn("webhook bindings not served: no certificate", "owner", owner, "missing", missing,
			"hint", "mount the servers' certificate, key and CA (VALIDATING_WEBHOOK_SERVER_CERT, _SERVER_KEY, _CA; CONVERSION_WEBHOOK_* likewise)")
		return nil
	}
	if err := w.serve(len(adm) > 0, len(conv) > 0); err != nil {
		return err
	}
	o := ownerWebhooks{hooks: hooks, admissions: adm, conversion: conv, ready: map[string]bool{}}
	w.dispatcher.Set(owner, adm, conv)
	for _, h := range immediatelyReady(hooks) {
		w.dispatcher.Ready(owner, h)
		o.ready[h] = true
	}
	w.mu.Lock()
	w.owners[owner] = o
	w.board.SetWebhooks(owner, webhookStates(o))
	w.mu.Unlock()
	reg, convEndpoint, err := w.registrar(len(adm) > 0, len(conv) > 0)
	if err != nil {
		return err
	}
	if err := reg.Apply(ctx, owner, adm); err != nil {
		return err
	}
	for _, crd := range crdNames(conv) {
		if err := reg.ApplyConversion(ctx, crd, convEndpoint.Conversion(webhook.ConversionPath(crd))); err != nil {
			return err
		}
	}
	w.log.Info("webhooks registered", "owner", owner, "admission", len(adm), "conversion", len(conv))
	return nil
}

// Synced implements worker.Webhooks.
func (w *webhooks) Synced(owner string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	o, ok := w.owners[owner]
	if !ok || o.kept {
		return
	}
	for _, h := range o.hooks {
		if h.Config != nil && h.Config.HasWebhooks() && !o.ready[h.Name] {
			w.dispatcher.Ready(owner, h.Name)
			o.ready[h.Name] = true
		}
	}
	w.board.SetWebhooks(owner, webhookStates(o))
}

// Unregister implements worker.Webhooks: the configurations are deleted,
// each CRD's conversion released, and what is released no more served. A
// CRD whose objects only the webhook can convert keeps its conversion,
// served (WARN).
func (w *webhooks) Unregister(ctx context.Context, owner string, hooks hookrun.HookSet) error {
	w.mu.Lock()
	o, ok := w.owners[owner]
	w.mu.Unlock()
	if !ok { // not registered by this process: what its hooks convert
		_, o.conversion = webhookBindings(owner, hooks)
		o.hooks, o.ready = hooks, map[string]bool{}
	}
	reg, _, err := w.registrar(false, false)
	if err != nil {
		return err
	}
	if err := reg.Remove(ctx, owner); err != nil {
		return err
	}
	keep, err := w.releaseConversions(ctx, reg, owner, o.conversion)
	if err != nil {
		return err
	}
	if err := w.serve(false, len(keep) > 0); err != nil {
		return err
	}
	w.forgetServed(owner, o, keep)
	w.log.Info("webhooks removed", "owner", owner, "conversions kept", len(keep))
	return nil
}

func (w *webhooks) releaseConversions(ctx context.Context, reg *register.Registrar, owner string, conv []webhook.Conversion) (map[string]bool, error) {
	keep := map[string]bool{}
	for _, crd := range crdNames(conv) {
		r, err := reg.ReleaseConversion(ctx, crd)
		if err != nil {
			return nil, err
		}
		if r.Action == register.ReleaseKeepServing {
			keep[crd] = true
			w.log.Warn("conversion webhook kept: the CRD's objects need it", "owner", owner, "crd", crd,
				"storedVersions", r.StoredVersions, "reason", r.Reason)
		}
	}
	return keep, nil
}

// forgetServed stops serving owner's bindings but the kept conversions.
func (w *webhooks) forgetServed(owner string, o ownerWebhooks, keep map[string]bool) {
	kept := keptConversions(o.conversion, keep)
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(kept) == 0 {
		delete(w.owners, owner)
		w.dispatcher.Remove(owner)
		w.board.SetWebhooks(owner, nil)
		return
	}
	o = ownerWebhooks{hooks: o.hooks, conversion: kept, ready: map[string]bool{}, kept: true}
	w.owners[owner] = o
	w.dispatcher.Set(owner, nil, kept)
	for _, c := range kept { // the CRD's objects are read now
		w.dispatcher.Ready(owner, c.Hook)
		o.ready[c.Hook] = true
	}
	w.board.SetWebhooks(owner, webhookStates(o))
}

// Forget implements worker.Webhooks: the owner's actor is gone.
func (w *webhooks) Forget(owner string) {
	w.running.Add(1)
	go func() {
		defer w.running.Done()
		if err := w.Unregister(w.work, owner, nil); err != nil {
			w.log.Error("webhooks of a removed module not removed", "owner", owner, "err", err)
		}
	}()
}

// registrar writes to the cluster with the CA bundles read now (they may
// be renewed while the operator runs); only the bundles of the servers
// registered are read (a removal needs none).
func (w *webhooks) registrar(admission, conversion bool) (*register.Registrar, register.Endpoint, error) {
	adm, err := w.endpoint(w.cfg.Admission, w.cfg.AdmissionURL, admission)
	if err != nil {
		return nil, register.Endpoint{}, err
	}
	conv, err := w.endpoint(w.cfg.Conversion, w.cfg.ConversionURL, conversion)
	if err != nil {
		return nil, register.Endpoint{}, err
	}
	return register.New(w.kube, w.crds, w.cfg.Admission.ConfigurationName, adm), conv, nil
}

func (w *webhooks) endpoint(s server.Settings, url string, withCA bool) (register.Endpoint, error) {
	e := register.Endpoint{URL: url, Namespace: w.namespace, ServiceName: s.ServiceName}
	if !withCA {
		return e, nil
	}
	ca, err := os.ReadFile(s.CAFile)
	if err != nil {
		return register.Endpoint{}, fmt.Errorf("webhook CA bundle: %w", err)
	}
	e.CABundle = ca
	return e, nil
}

// serve starts the servers asked for that are not running yet.
// missingCertificates names the certificate, key or CA file of a server
// that is needed and does not exist ("" when none is missing).
func (w *webhooks) missingCertificates(admission, conversion bool) string {
	var files []string
	if admission {
		files = append(files, w.cfg.Admission.CertFile, w.cfg.Admission.KeyFile, w.cfg.Admission.CAFile)
	}
	if conversion {
		files = append(files, w.cfg.Conversion.CertFile, w.cfg.Conversion.KeyFile, w.cfg.Conversion.CAFile)
	}
	return missingFile(files...)
}

func (w *webhooks) serve(admission, conversion bool) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if admission && !w.serving["admission"] {
		if err := w.start("admission", w.cfg.Admission, w.dispatcher.Admission()); err != nil {
			return err
		}
	}
	if conversion && !w.serving["conversion"] {
		return w.start("conversion", w.cfg.Conversion, w.dispatcher.Conversion())
	}
	return nil
}

// start listens now (a port in use fails the registration) and serves
// until stop.
func (w *webhooks) start(name string, s server.Settings, h http.Handler) error {
	srv, err := server.New(s, h, w.log.With("server", name))
	if err != nil {
		return fmt.Errorf("%s webhook server: %w", name, err)
	}
	if err := srv.Listen(); err != nil {
		return fmt.Errorf("%s webhook server: %w", name, err)
	}
	w.serving[name] = true
	w.log.Info("webhook server started", "server", name, "address", srv.Addr().String())
	w.running.Add(1)
	go func() {
		defer w.running.Done()
		if err := srv.Serve(w.serveCtx); err != nil {
			w.log.Error("webhook server stopped", "server", name, "err", err)
		}
	}()
	return nil
}

// stop stops the servers and waits for the background removals.
func (w *webhooks) stop() {
	w.stopServe()
	w.running.Wait()
}
