package app

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// waitMetrics are the waits for releases' workloads after helm (see
// module.Metrics).
type waitMetrics struct {
	waits   *prometheus.CounterVec
	seconds *prometheus.HistogramVec
}

// registerWait registers {P}helm_ready_waits_total{module,outcome} and
// {P}helm_ready_wait_seconds{module}.
func (m *metrics) registerWait(reg *prometheus.Registry, prefix string) {
	m.wait.waits = prometheus.NewCounterVec(prometheus.CounterOpts{Name: prefix + "helm_ready_waits_total",
		Help: "Waits for a release's workloads after helm (ADDON_OPERATOR_WAIT_READY, module.yaml readiness): outcome ready, " +
			"timeout (the module run failed naming what was not ready) or failed (an object that will not become ready, such as a failed Job)."},
		[]string{"module", "outcome"})
	m.wait.seconds = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: prefix + "helm_ready_wait_seconds",
		Help:    "Duration of waits for a release's workloads after helm, whatever their outcome.",
		Buckets: prometheus.ExponentialBuckets(0.05, 2, 14)}, []string{"module"})
	m.register(reg, m.wait.waits, m.wait.seconds)
}

// ReadyWait implements module.Metrics.
func (m *metrics) ReadyWait(module, outcome string, took time.Duration) {
	m.wait.waits.WithLabelValues(module, outcome).Inc()
	m.wait.seconds.WithLabelValues(module).Observe(took.Seconds())
}
