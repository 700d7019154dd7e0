package app

import (
	"github.com/prometheus/client_golang/prometheus"
)

// driftMetrics are the drift checks' (see module.Metrics).
type driftMetrics struct {
	detected *prometheus.CounterVec
	restores *prometheus.CounterVec
	drifted  *prometheus.GaugeVec
	checks   *prometheus.CounterVec
}

// registerDrift registers {P}helm_drift_total{module,kind},
// {P}helm_drift_restores_total{module,kind,outcome},
// {P}helm_drifted_objects{module} and {P}helm_release_checks_total{module}.
func (m *metrics) registerDrift(reg *prometheus.Registry, prefix string) {
	m.drift.detected = prometheus.NewCounterVec(prometheus.CounterOpts{Name: prefix + "helm_drift_total",
		Help: "Release objects found drifted from their manifest (new, changed, or back after a restore), each logged at WARN."},
		[]string{"module", "kind"})
	m.drift.restores = prometheus.NewCounterVec(prometheus.CounterOpts{Name: prefix + "helm_drift_restores_total",
		Help: "Restores of drifted objects (ADDON_OPERATOR_DRIFT=restore): outcome restored, failed, or given_up " +
			"(another writer set the field back after each restore; logged at ERROR)."},
		[]string{"module", "kind", "outcome"})
	m.drift.drifted = prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: prefix + "helm_drifted_objects",
		Help: "Objects of the module's release that differ from its manifest now."}, []string{"module"})
	m.drift.checks = prometheus.NewCounterVec(prometheus.CounterOpts{Name: prefix + "helm_release_checks_total",
		Help: "Periodic checks of a module's release for absent objects and drift (ADDON_OPERATOR_RESOURCES_CHECK_INTERVAL)."},
		[]string{"module"})
	m.register(reg, m.drift.detected, m.drift.restores, m.drift.drifted, m.drift.checks)
}

// DriftDetected implements module.Metrics.
func (m *metrics) DriftDetected(module, kind string) {
	m.drift.detected.WithLabelValues(module, kind).Inc()
}

// DriftRestore implements module.Metrics.
func (m *metrics) DriftRestore(module, kind, outcome string) {
	m.drift.restores.WithLabelValues(module, kind, outcome).Inc()
}

// ReleaseChecked implements module.Metrics.
func (m *metrics) ReleaseChecked(module string) { m.drift.checks.WithLabelValues(module).Inc() }

// DriftedObjects implements module.Metrics.
func (m *metrics) DriftedObjects(module string, n int) {
	m.drift.drifted.WithLabelValues(module).Set(float64(n))
}
