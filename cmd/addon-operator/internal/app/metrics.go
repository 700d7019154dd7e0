package app

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/addon-actors/addon-operator/actors/inspect"
	"github.com/addon-actors/addon-operator/messages"
)

// metrics are the operator's own metrics of this issue; the hook and
// module figures arrive with the metrics issue.
type metrics struct {
	reg          *prometheus.Registry
	prefix       string
	configErrors prometheus.Counter
	queueLength  *prometheus.GaugeVec
	dropped      *prometheus.CounterVec
	convergence  prometheus.Histogram
	convergences prometheus.Counter
}

func newMetrics(reg *prometheus.Registry, prefix string) *metrics {
	m := &metrics{reg: reg, prefix: prefix,
		configErrors: prometheus.NewCounter(prometheus.CounterOpts{Name: prefix + "config_values_errors_total",
			Help: "ConfigMap versions rejected as invalid."}),
		queueLength: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: prefix + "tasks_queue_length",
			Help: "Tasks in each queue, the running one included."}, []string{"queue"}),
		dropped: prometheus.NewCounterVec(prometheus.CounterOpts{Name: prefix + "tasks_dropped_total",
			Help: "Tasks dropped after a failure (allowFailure, or an owner that is gone)."}, []string{"queue", "kind"}),
		convergence: prometheus.NewHistogram(prometheus.HistogramOpts{Name: prefix + "convergence_seconds",
			Help: "Duration of a converge (reload all modules).", Buckets: prometheus.ExponentialBuckets(0.1, 2, 12)}),
		convergences: prometheus.NewCounter(prometheus.CounterOpts{Name: prefix + "convergence_total",
			Help: "Finished converges."}),
	}
	reg.MustRegister(m.configErrors, m.queueLength, m.dropped, m.convergence, m.convergences)
	return m
}

func (m *metrics) registerInspector(r *inspect.Registry) {
	m.reg.MustRegister(inspect.NewCollector(r, m.prefix))
}

func (m *metrics) queues(s messages.QueueSnapshot) {
	for _, q := range s.Queues {
		m.queueLength.WithLabelValues(q.Name).Set(float64(len(q.Tasks)))
	}
}

func (m *metrics) taskDropped(t messages.Task, _ string) {
	m.dropped.WithLabelValues(t.Queue, string(t.Kind)).Inc()
}

func (m *metrics) converged(d time.Duration) {
	m.convergence.Observe(d.Seconds())
	m.convergences.Inc()
}
