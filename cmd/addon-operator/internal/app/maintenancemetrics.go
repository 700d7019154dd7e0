package app

import "github.com/prometheus/client_golang/prometheus"

// registerMaintenance registers {P}mm_module_maintenance{module,state}, the
// original's name and labels (UPSTREAM.md §6).
func (m *metrics) registerMaintenance(reg *prometheus.Registry, prefix string) {
	m.maintenance = prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: prefix + "mm_module_maintenance",
		Help: maintenanceHelp},
		[]string{"module", "state"})
	m.register(reg, m.maintenance)
}

// Maintenance implements module.Metrics. Unlike the original, which drops
// the whole metric when any module returns to Managed (and so forgets the
// others still in maintenance until their next change), only this module's
// series goes.
func (m *metrics) Maintenance(module, state string) {
	m.maintenance.DeletePartialMatch(prometheus.Labels{"module": module})
	if state != "" {
		m.maintenance.WithLabelValues(module, state).Set(1)
	}
}

const maintenanceHelp = "1 for each module in maintenance mode (ConfigMap key xMaintenance: NoResourceReconciliation): " +
	"its hooks run, helm and the healing of absent objects do not."
