package app

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/addon-actors/addon-operator/hookrun"
)

// hookMetrics are the hook run figures of the global and the module hooks.
type hookMetrics struct {
	global, module *runSeries
	// outputDropped counts output lines over the per-run limits, by
	// module (empty for a global hook) and hook.
	outputDropped *prometheus.CounterVec
}

func newHookMetrics(m *metrics, prefix string) hookMetrics {
	h := hookMetrics{
		global: newRunSeries(prefix+"global_hook_", []string{"hook", "binding", "queue", "activation"}),
		module: newRunSeries(prefix+"module_hook_", []string{"module", "hook", "binding", "queue", "activation"}),
		outputDropped: prometheus.NewCounterVec(prometheus.CounterOpts{Name: prefix + "hook_output_dropped_lines_total",
			Help: "Output lines of hook runs not logged, over the per-run limits (module empty for a global hook)."},
			[]string{"module", "hook"}),
	}
	m.register(m.reg, h.global, h.module, h.outputDropped)
	return h
}

func (h hookMetrics) observe(r hookrun.HookRun) {
	m, labels := h.global, []string{r.Hook, r.Info.Binding, r.Info.Queue, runActivation(r.Info.Activation)}
	if r.Module != "" {
		m, labels = h.module, append([]string{r.Module}, labels...)
	}
	if r.Result.DroppedLines > 0 {
		h.outputDropped.WithLabelValues(r.Module, r.Hook).Add(float64(r.Result.DroppedLines))
	}
	// All three counters move (by 0 or 1) on every run, as the original's
	// do: each series is there from a hook's first run.
	m.observe(labels, runFigures{seconds: r.Result.Duration.Seconds(), userCPU: r.Result.UserCPU.Seconds(),
		sysCPU: r.Result.SysCPU.Seconds(), maxRSS: float64(r.Result.MaxRSSBytes), contextBytes: float64(r.Result.ContextBytes),
		failed: r.Err != nil && !r.Info.AllowFailure, allowed: r.Err != nil && r.Info.AllowFailure, succeeded: r.Err == nil})
}

func one(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
