package server

import (
	"cmp"
	"context"
	"encoding/json"
	"log/slog"
	"runtime"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/addon-actors/addon-operator/webhook"
)

// Runner runs a hook for one review and returns what the hook wrote to
// its response file. The operator implements it. It must stop the hook
// (its process group) when ctx ends.
type Runner interface {
	// Admit runs the hook of binding a with the AdmissionRequest request.
	Admit(ctx context.Context, a webhook.Admission, request json.RawMessage) ([]byte, error)
	// Convert runs the hook of binding c for its rule from → to with the
	// ConversionRequest request (its objects all of version from; its
	// desiredAPIVersion the chain's last target).
	Convert(ctx context.Context, c webhook.Conversion, from, to string, request json.RawMessage) ([]byte, error)
}

// DefaultConversionTimeout bounds a conversion review, the apiserver's
// own limit for conversion webhooks.
const DefaultConversionTimeout = 30 * time.Second

// Config is what a Dispatcher needs.
type Config struct {
	Runner Runner
	Log    *slog.Logger
	// Metrics registers the webhook metrics (nil: not registered);
	// MetricsPrefix goes before their names.
	Metrics       prometheus.Registerer
	MetricsPrefix string
	// Concurrency is a hook's runs at once when its bindings say none
	// (0: runtime.NumCPU()).
	Concurrency int
	// ConversionTimeout bounds a conversion review (0: the default).
	ConversionTimeout time.Duration
	// Now is the clock of the durations measured (nil: time.Now).
	Now func() time.Time
	// MaxInFlight bounds the reviews read or answered at once, across
	// every hook and both servers (0: DefaultMaxInFlight); MaxInFlightBytes
	// their bodies (0: DefaultMaxInFlightBytes; at least the larger cap).
	MaxInFlight      int
	MaxInFlightBytes int64
	// AdmissionMaxBytes and ConversionMaxBytes cap a review's body (0:
	// DefaultAdmissionMaxBytes, DefaultConversionMaxBytes).
	AdmissionMaxBytes, ConversionMaxBytes int64
}

// Dispatcher routes reviews to the Runner by what is Set.
type Dispatcher struct {
	cfg      Config
	reg      *registry
	metrics  *metrics
	inFlight *inFlight
}

// NewDispatcher makes a dispatcher serving nothing yet.
func NewDispatcher(cfg Config) (*Dispatcher, error) {
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = runtime.NumCPU()
	}
	if cfg.ConversionTimeout <= 0 {
		cfg.ConversionTimeout = DefaultConversionTimeout
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	cfg.MaxInFlight = cmp.Or(max(cfg.MaxInFlight, 0), DefaultMaxInFlight)
	cfg.AdmissionMaxBytes = cmp.Or(max(cfg.AdmissionMaxBytes, 0), DefaultAdmissionMaxBytes)
	cfg.ConversionMaxBytes = cmp.Or(max(cfg.ConversionMaxBytes, 0), DefaultConversionMaxBytes)
	cfg.MaxInFlightBytes = max(cmp.Or(cfg.MaxInFlightBytes, DefaultMaxInFlightBytes), cfg.AdmissionMaxBytes, cfg.ConversionMaxBytes)
	m, err := newMetrics(cfg.Metrics, cfg.MetricsPrefix)
	if err != nil {
		return nil, err
	}
	return &Dispatcher{cfg: cfg, reg: newRegistry(cfg.Concurrency), metrics: m,
		inFlight: newInFlight(cfg.MaxInFlight, cfg.MaxInFlightBytes)}, nil
}

// Set replaces the bindings of owner (GlobalOwner or a module); their
// Owner fields are set to owner. Hooks new to the dispatcher wait for
// Ready.
func (d *Dispatcher) Set(owner string, admissions []webhook.Admission, conversions []webhook.Conversion) {
	d.reg.set(owner, admissions, conversions)
}

// Remove stops serving owner's bindings; reviews in flight finish.
func (d *Dispatcher) Remove(owner string) { d.reg.remove(owner) }

// Ready lets reviews run owner's hook: its Synchronization is done.
func (d *Dispatcher) Ready(owner, hook string) { d.reg.ready(owner, hook) }

// run runs fn in a slot of the hook, within ctx: it returns when fn does
// or ctx ends, whichever is first; the slot is held until fn returns.
func run(ctx context.Context, h hookChans, fn func(context.Context) ([]byte, error)) ([]byte, error) {
	release, err := h.enter(ctx)
	if err != nil {
		return nil, err
	}
	type result struct {
		file []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		defer release()
		file, err := fn(ctx)
		done <- result{file, err}
	}()
	select {
	case r := <-done:
		return r.file, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
