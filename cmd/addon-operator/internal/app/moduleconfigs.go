package app

import (
	"strconv"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/addon-actors/addon-operator/actors/config"
	"github.com/addon-actors/addon-operator/moduleconfig"
	"github.com/addon-actors/addon-operator/supervision/kubewatch"
)

// moduleConfigs are the config actor's second source
// (ADDON_OPERATOR_MODULE_CONFIGS): the ModuleConfig objects, validated
// against the modules as the operator last read them (a module dir added
// while it runs included), their status written and their metrics
// registered, the Secrets their spec.settingsFrom name watched in the
// operator's namespace; nil when the setting is off.
func (p parts) moduleConfigs() *config.ModuleConfigOptions {
	if !p.cfg.ModuleConfigs {
		return nil
	}
	log := p.cfg.Log.With("actor", "config", "source", "moduleconfigs")
	objects := config.Objects{Client: p.dynamic, Log: log,
		Watch: kubewatch.Options{Log: log, Down: p.metrics.watchesDown}}
	// The webhook's catalog: the read side checks an object against the
	// same reading of the dirs, replaced at each discovery.
	reviews := p.app.mcWebhook
	targets := func() map[string]moduleconfig.Target { return reviews.catalog.Load().Targets() }
	secrets := config.Secrets{Client: p.client, Namespace: p.cfg.Namespace,
		Health: kubewatch.Options{Log: log, Down: p.metrics.watchesDown}}
	return &config.ModuleConfigOptions{Source: objects, Status: objects, TargetsNow: targets, Secrets: secrets, Metrics: newModuleConfigMetrics(p.metrics, p.cfg.MetricsPrefix)}
}

// moduleConfigMetrics are {P}module_config_obsolete_version and
// {P}module_config_invalid_total.
type moduleConfigMetrics struct {
	obsolete *prometheus.GaugeVec
	invalid  *prometheus.CounterVec
}

func newModuleConfigMetrics(m *metrics, prefix string) moduleConfigMetrics {
	mc := moduleConfigMetrics{
		obsolete: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: prefix + "module_config_obsolete_version",
			Help: "1 for a ModuleConfig whose settings are written at an older version than its module's latest; they are converted on read."},
			[]string{"module", "version", "latest"}),
		invalid: prometheus.NewCounterVec(prometheus.CounterOpts{Name: prefix + "module_config_invalid_total",
			Help: "ModuleConfig generations found not valid on read; the module keeps its last good values."},
			[]string{"module"}),
	}
	m.register(m.reg, mc.obsolete, mc.invalid)
	return mc
}

// SetObsolete implements config.ModuleConfigMetrics.
func (mc moduleConfigMetrics) SetObsolete(module string, version, latest int) {
	mc.obsolete.WithLabelValues(module, strconv.Itoa(version), strconv.Itoa(latest)).Set(1)
}

// ClearObsolete implements config.ModuleConfigMetrics.
func (mc moduleConfigMetrics) ClearObsolete(module string) {
	mc.obsolete.DeletePartialMatch(prometheus.Labels{"module": module})
}

// CountInvalid implements config.ModuleConfigMetrics.
func (mc moduleConfigMetrics) CountInvalid(module string) { mc.invalid.WithLabelValues(module).Inc() }
