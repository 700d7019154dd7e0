package app

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/addon-actors/addon-operator/hookrun"
)

// hookMetrics are the hook run figures of the global and the module hooks.
type hookMetrics struct {
	global, module scopeHookMetrics
	// outputDropped counts output lines over the per-run limits, by
	// module (empty for a global hook) and hook.
	outputDropped *prometheus.CounterVec
}

// scopeHookMetrics are one scope's: run duration, CPU and memory, errors,
// allowed errors and successes.
type scopeHookMetrics struct {
	seconds, userCPU, sysCPU       *prometheus.HistogramVec
	maxRSS                         *prometheus.GaugeVec
	contextBytes                   *prometheus.HistogramVec
	errors, allowedErrors, success *prometheus.CounterVec
}

func newHookMetrics(m *metrics, prefix string) hookMetrics {
	h := hookMetrics{
		global: newScopeHookMetrics(m, prefix+"global_hook_", []string{"hook", "binding", "queue", "activation"}),
		module: newScopeHookMetrics(m, prefix+"module_hook_", []string{"module", "hook", "binding", "queue", "activation"}),
		outputDropped: prometheus.NewCounterVec(prometheus.CounterOpts{Name: prefix + "hook_output_dropped_lines_total",
			Help: "Output lines of hook runs not logged, over the per-run limits (module empty for a global hook)."},
			[]string{"module", "hook"}),
	}
	m.register(m.reg, h.outputDropped)
	return h
}

func newScopeHookMetrics(reg *metrics, prefix string, labels []string) scopeHookMetrics {
	buckets := prometheus.ExponentialBuckets(0.001, 2, 16)
	m := scopeHookMetrics{
		seconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: prefix + "run_seconds",
			Help: "Duration of hook runs.", Buckets: buckets}, labels),
		userCPU: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: prefix + "run_user_cpu_seconds",
			Help: "User CPU time of hook runs.", Buckets: buckets}, labels),
		sysCPU: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: prefix + "run_sys_cpu_seconds",
			Help: "System CPU time of hook runs.", Buckets: buckets}, labels),
		maxRSS: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: prefix + "run_max_rss_bytes",
			Help: "Peak resident memory of the last run of the hook."}, labels),
		contextBytes: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: prefix + "binding_context_bytes",
			Help:    "Size of the binding context file of hook runs.",
			Buckets: prometheus.ExponentialBuckets(1024, 4, 12)}, labels),
		errors: prometheus.NewCounterVec(prometheus.CounterOpts{Name: prefix + "errors_total",
			Help: "Failed hook runs that will be retried."}, labels),
		allowedErrors: prometheus.NewCounterVec(prometheus.CounterOpts{Name: prefix + "allowed_errors_total",
			Help: "Failed hook runs of bindings with allowFailure (dropped)."}, labels),
		success: prometheus.NewCounterVec(prometheus.CounterOpts{Name: prefix + "success_total",
			Help: "Hook runs that succeeded."}, labels),
	}
	reg.register(reg.reg, m.seconds, m.userCPU, m.sysCPU, m.maxRSS, m.contextBytes, m.errors, m.allowedErrors, m.success)
	return m
}

func (h hookMetrics) observe(r hookrun.HookRun) {
	m, labels := h.global, []string{r.Hook, r.Info.Binding, r.Info.Queue, runActivation(r.Info.Activation)}
	if r.Module != "" {
		m, labels = h.module, append([]string{r.Module}, labels...)
	}
	m.seconds.WithLabelValues(labels...).Observe(r.Result.Duration.Seconds())
	m.userCPU.WithLabelValues(labels...).Observe(r.Result.UserCPU.Seconds())
	m.sysCPU.WithLabelValues(labels...).Observe(r.Result.SysCPU.Seconds())
	m.maxRSS.WithLabelValues(labels...).Set(float64(r.Result.MaxRSSBytes))
	m.contextBytes.WithLabelValues(labels...).Observe(float64(r.Result.ContextBytes))
	if r.Result.DroppedLines > 0 {
		h.outputDropped.WithLabelValues(r.Module, r.Hook).Add(float64(r.Result.DroppedLines))
	}
	// All three counters move (by 0 or 1) on every run, as the original's
	// do: each series is there from a hook's first run.
	failed, allowed := r.Err != nil && !r.Info.AllowFailure, r.Err != nil && r.Info.AllowFailure
	m.errors.WithLabelValues(labels...).Add(one(failed))
	m.allowedErrors.WithLabelValues(labels...).Add(one(allowed))
	m.success.WithLabelValues(labels...).Add(one(r.Err == nil))
}

func one(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
