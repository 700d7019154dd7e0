package server

import (
	"errors"
	"fmt"

	"github.com/prometheus/client_golang/prometheus"
)

// metrics are per binding: kind (validating, mutating, conversion),
// owner, binding.
type metrics struct {
	requests *prometheus.CounterVec
	denials  *prometheus.CounterVec
	errors   *prometheus.CounterVec // plus reason (webhook.Failure)
	duration *prometheus.HistogramVec
	// refused are reviews refused before a hook was asked: server
	// (admission, conversion) and reason (busy, too_large).
	refused  *prometheus.CounterVec
	inFlight prometheus.Gauge
}

func newMetrics(reg prometheus.Registerer, prefix string) (*metrics, error) {
	labels := []string{"kind", "owner", "binding"}
	m := &metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{Name: prefix + "webhook_requests_total",
			Help: "Reviews served, per binding (for conversions: per hook step)."}, labels),
		denials: prometheus.NewCounterVec(prometheus.CounterOpts{Name: prefix + "webhook_denials_total",
			Help: "Admission reviews denied and conversions failed, per binding."}, labels),
		errors: prometheus.NewCounterVec(prometheus.CounterOpts{Name: prefix + "webhook_errors_total",
			Help: "Reviews not answered by the hook itself, per binding and reason."}, append(labels, "reason")),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: prefix + "webhook_request_seconds",
			Help:    "Time from a review's arrival to its reply, per binding.",
			Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30}}, labels),
		refused: prometheus.NewCounterVec(prometheus.CounterOpts{Name: prefix + "webhook_requests_refused_total",
			Help: "Reviews refused before their body was decoded: busy (the bound on reviews in flight was reached, 503) or too_large (413)."},
			[]string{"server", "reason"}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{Name: prefix + "webhook_requests_in_flight",
			Help: "Reviews being read or answered now, both servers (bounded by ADDON_OPERATOR_WEBHOOK_MAX_IN_FLIGHT)."}),
	}
	if reg == nil {
		return m, nil
	}
	for _, c := range []prometheus.Collector{m.requests, m.denials, m.errors, m.duration, m.refused, m.inFlight} {
		if err := reg.Register(c); err != nil {
			var already prometheus.AlreadyRegisteredError
			if errors.As(err, &already) {
				return nil, fmt.Errorf("webhook metrics: registered twice (one Dispatcher per registerer): %w", err)
			}
			return nil, fmt.Errorf("webhook metrics: %w", err)
		}
	}
	return m, nil
}
