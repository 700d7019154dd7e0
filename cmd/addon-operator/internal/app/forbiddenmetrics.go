package app

import (
	"strings"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/addon-actors/addon-operator/forbidden"
	"github.com/addon-actors/addon-operator/messages"
)

// registerForbidden registers kube_forbidden_total: the apiserver's
// refusals of the operator's calls, by owner (a module's name or
// "global"), verb and resource (group/resource): RBAC the operator lacks.
func (m *metrics) registerForbidden(reg *prometheus.Registry, prefix string) {
	m.forbidden = prometheus.NewCounterVec(prometheus.CounterOpts{Name: prefix + "kube_forbidden_total",
		Help: "Calls the apiserver refused (403) by owner (module or global), verb and resource (group/resource): " +
			"helm, object patches, ConfigMap writes, kubernetes bindings' list and watch. The error names the rule to add."},
		[]string{"owner", "verb", "resource"})
	m.register(reg, m.forbidden)
}

// countForbidden counts each refusal err carries (a joined error may carry
// several) for owner.
func (m *metrics) countForbidden(owner string, err error) {
	if err == nil {
		return
	}
	for _, d := range forbidden.All(err.Error()) {
		m.forbidden.WithLabelValues(owner, d.Verb, d.GroupResource()).Inc()
	}
}

// kubeForbidden counts a kubernetes binding's refused list or watch
// (kube.Options.Forbidden); owner is "global" or "module/NAME".
func (m *metrics) kubeForbidden(owner string, d forbidden.Denial) {
	name, _ := strings.CutPrefix(owner, messages.ModuleOwner(""))
	m.forbidden.WithLabelValues(name, d.Verb, d.GroupResource()).Inc()
}
