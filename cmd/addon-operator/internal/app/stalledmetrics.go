package app

import "github.com/prometheus/client_golang/prometheus"

// registerStalled registers {P}module_stalled{module}.
func (m *metrics) registerStalled(reg *prometheus.Registry, prefix string) {
	m.stalled = prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: prefix + "module_stalled",
		Help: "1 for each module whose runs failed as many times in a row as remediation.retries allows: " +
			"not retried until something changes for it"},
		[]string{"module"})
	m.register(reg, m.stalled)
}

// Stalled implements module.Metrics: a module's series is there only while
// it is stalled.
func (m *metrics) Stalled(module string, on bool) {
	if on {
		m.stalled.WithLabelValues(module).Set(1)
		return
	}
	m.stalled.DeleteLabelValues(module)
}
