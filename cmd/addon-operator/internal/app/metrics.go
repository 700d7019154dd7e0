package app

import (
	"regexp"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/chartrun"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/supervision/inspect"
)

// metrics are the operator's own metrics, with the names of the original
// flant/addon-operator where they exist.
type metrics struct {
	reg            *prometheus.Registry
	prefix         string
	configErrors   prometheus.Counter
	discoverErrors prometheus.Counter
	liveTicks      prometheus.Counter
	hooks          hookMetrics
	hookStore      *hookStore
	hookRegistry   *prometheus.Registry
	moduleRun      *prometheus.HistogramVec
	moduleRunErrs  *prometheus.CounterVec
	deleteErrs     *prometheus.CounterVec
	helm           *prometheus.HistogramVec
	helmErrs       *prometheus.CounterVec
	kubeErrs       *prometheus.CounterVec
	forbidden      *prometheus.CounterVec
	watchesDown    prometheus.Gauge
	moduleFailed   *prometheus.GaugeVec
	maintenance    *prometheus.GaugeVec
	stalled        *prometheus.GaugeVec
	drift          driftMetrics
	wait           waitMetrics
	destructive    *prometheus.CounterVec
	recoveries     *prometheus.CounterVec
	queueLength    *prometheus.GaugeVec
	headAttempts   *prometheus.GaugeVec
	headSince      *prometheus.GaugeVec
	heads          map[string]uint64 // queue -> head task id
	headInfo       *headInfo
	moduleInfo     *moduleInfo
	unmet, unseen  *moduleSet
	collectors     []prometheus.Collector
	dropped        *prometheus.CounterVec
	convergence    *prometheus.CounterVec
	convergences   *prometheus.CounterVec

	// configMapMissing is 1 while the ConfigMap is deleted and the last
	// good configuration is kept.
	configMapMissing prometheus.Gauge
}

func newMetrics(reg *prometheus.Registry, prefix string) *metrics {
	m := &metrics{reg: reg, prefix: prefix,
		configErrors: prometheus.NewCounter(prometheus.CounterOpts{Name: prefix + "config_values_errors_total",
			Help: "ConfigMap versions rejected as invalid."}),
		queueLength: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: prefix + "tasks_queue_length",
			Help: "Tasks in each queue, the running one included."}, []string{"queue"}),
		dropped: prometheus.NewCounterVec(prometheus.CounterOpts{Name: prefix + "tasks_dropped_total",
			Help: "Tasks dropped: after a failure (allowFailure, or an owner that is gone), or superseded by a reload."}, []string{"queue", "kind"}),
		// Counters, as the original's: seconds spent converging, by what
		// started each converge.
		convergence: prometheus.NewCounterVec(prometheus.CounterOpts{Name: prefix + "convergence_seconds",
			Help: "Seconds spent in finished converges (reload all modules), by activation."}, []string{"activation"}),
		convergences: prometheus.NewCounterVec(prometheus.CounterOpts{Name: prefix + "convergence_total",
			Help: "Finished converges, by activation."}, []string{"activation"}),
	}
	m.headAttempts = prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: prefix + "tasks_queue_head_attempts",
		Help: "Failed attempts of the task at the head of each queue."}, []string{"queue"})
	m.headSince = prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: prefix + "tasks_queue_head_since_seconds",
		Help: "Unix time since which the head task of each queue has been at its head (0: empty queue)."}, []string{"queue"})
	m.heads = map[string]uint64{}
	m.headInfo = newHeadInfo(prefix)
	m.moduleInfo = newModuleInfo(prefix)
	m.unmet = newModuleSet(prefix+"module_requirements_unmet",
		"1 for every module that unmet requirements (module.yaml) disabled at the last discovery.")
	m.unseen = newModuleSet(prefix+"module_dir_unseen",
		"1 for every module whose dir cannot be seen (a dangling symlink): kept with its release, neither run nor deleted.")
	m.configMapMissing = prometheus.NewGauge(prometheus.GaugeOpts{Name: prefix + "config_map_missing",
		Help: "1 while the ConfigMap is deleted and the last good configuration stays in force."})
	m.register(reg, m.configErrors, m.configMapMissing, m.queueLength, m.dropped, m.convergence, m.convergences, m.headAttempts, m.headSince,
		m.headInfo.vec, m.moduleInfo.vec, m.unmet.vec, m.unseen.vec)
	// The Go runtime's own (go_memstats_heap_inuse_bytes, go_goroutines…):
	// what a flood of requests or a large file costs shows there.
	m.register(reg, collectors.NewGoCollector())
	m.registerModuleMetrics(reg, prefix)
	m.registerForbidden(reg, prefix)
	m.registerMaintenance(reg, prefix)
	m.registerStalled(reg, prefix)
	m.registerDrift(reg, prefix)
	m.registerWait(reg, prefix)
	m.hooks = newHookMetrics(m, prefix)
	m.hookStore, m.hookRegistry = newHookStore(prefix), prometheus.NewRegistry()
	m.hookRegistry.MustRegister(m.hookStore)
	return m
}

func (m *metrics) registerModuleMetrics(reg *prometheus.Registry, prefix string) {
	m.discoverErrors = prometheus.NewCounter(prometheus.CounterOpts{Name: prefix + "modules_discover_errors_total",
		Help: "Failed module discoveries."})
	m.liveTicks = prometheus.NewCounter(prometheus.CounterOpts{Name: prefix + "live_ticks",
		Help: "Incremented every 10 seconds while the operator runs."})
	m.moduleRun = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: prefix + "module_run_seconds",
		Help: "Duration of module runs.", Buckets: prometheus.ExponentialBuckets(0.01, 2, 14)}, []string{"module", "activation"})
	m.moduleRunErrs = prometheus.NewCounterVec(prometheus.CounterOpts{Name: prefix + "module_run_errors_total",
		Help: "Failed module runs."}, []string{"module"})
	m.deleteErrs = prometheus.NewCounterVec(prometheus.CounterOpts{Name: prefix + "module_delete_errors_total",
		Help: "Failed module deletes (beforeDeleteHelm, the uninstall, afterDeleteHelm); each is retried."}, []string{"module"})
	m.helm = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: prefix + "module_helm_seconds",
		Help: "Duration of a module's helm upgrade check and run.", Buckets: prometheus.ExponentialBuckets(0.005, 2, 14)},
		[]string{"module", "activation"})
	m.helmErrs = prometheus.NewCounterVec(prometheus.CounterOpts{Name: prefix + "module_helm_errors_total",
		Help: "Failed helm upgrades."}, []string{"module"})
	m.kubeErrs = prometheus.NewCounterVec(prometheus.CounterOpts{Name: prefix + "kube_monitor_errors_total",
		Help: "Errors of kubernetes bindings: failed or refused list/watch calls, jqFilter errors on an object."},
		[]string{"module", "hook", "binding"})
	m.moduleFailed = prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: prefix + "module_failed",
		Help: "1 for a module that cannot start (its hooks failed --config, or a crds/ file is no CRD); it is left out, and its hooks are configured again after the retry delay, until they configure."},
		[]string{"module"})
	m.destructive = prometheus.NewCounterVec(prometheus.CounterOpts{Name: prefix + "helm_destructive_actions_total",
		Help: "Destructive actions on modules' helm releases, each logged at WARN with its reason: " +
			"action purge (module dir gone), uninstall (module disabled; reason: the layer that disabled it), " +
			"adopt (release not labelled by this operator), clear (stuck release rolled back or reinstalled; reason: its status)."},
		[]string{"module", "action", "reason"})
	m.recoveries = prometheus.NewCounterVec(prometheus.CounterOpts{Name: prefix + "helm_recoveries_total",
		Help: "Releases found in a state helm left stuck (pending-install, pending-upgrade, pending-rollback, uninstalling) " +
			"and recovered by a module run or delete; each logged at WARN with the revision and state found."},
		[]string{"module", "state"})
	m.watchesDown = prometheus.NewGauge(prometheus.GaugeOpts{Name: prefix + "kube_watches_down",
		Help: "Watches (kubernetes bindings, the ConfigMap) down: their last list or watch call failed, none succeeded since."})
	m.register(reg, m.discoverErrors, m.liveTicks, m.moduleRun, m.moduleRunErrs, m.deleteErrs, m.helm, m.helmErrs, m.kubeErrs, m.moduleFailed,
		m.destructive, m.recoveries, m.watchesDown)
}

// Destructive implements module.Metrics (and counts the lifecycle's purges).
func (m *metrics) Destructive(module string, d worker.Destructive) {
	m.destructive.WithLabelValues(module, d.Action, d.Reason).Inc()
	if d.Action == worker.ActionClear && chartrun.IsStuckState(d.Reason) {
		m.recoveries.WithLabelValues(module, d.Reason).Inc()
	}
}

// kubeError counts an error of a kubernetes binding (kube.Options.Errors);
// owner is "global" or "module/NAME".
func (m *metrics) kubeError(owner, hook, binding string) {
	module, _ := strings.CutPrefix(owner, messages.ModuleOwner(""))
	if owner == messages.OwnerGlobal {
		module = ""
	}
	m.kubeErrs.WithLabelValues(module, hook, binding).Inc()
}

// runActivation is the activation label of a hook or module run: as the
// original, OperatorStartup for the start-up's runs, empty for the others.
func runActivation(a messages.Activation) string {
	if a == messages.ActivationStartup {
		return string(a)
	}
	return ""
}

// ModuleRun implements module.Metrics.
func (m *metrics) ModuleRun(module string, a messages.Activation, took time.Duration, err error) {
	m.moduleRun.WithLabelValues(module, runActivation(a)).Observe(took.Seconds())
	if err != nil {
		m.moduleRunErrs.WithLabelValues(module).Inc()
		m.countForbidden(module, err)
	}
}

// ModuleDeleteFailed implements module.Metrics.
func (m *metrics) ModuleDeleteFailed(module string, err error) {
	m.deleteErrs.WithLabelValues(module).Inc()
	m.countForbidden(module, err)
}

// Helm implements module.Metrics.
func (m *metrics) Helm(module string, a messages.Activation, took time.Duration, err error) {
	m.helm.WithLabelValues(module, runActivation(a)).Observe(took.Seconds())
	if err != nil {
		m.helmErrs.WithLabelValues(module).Inc()
	}
}

// ModuleFailed implements module.Metrics.
func (m *metrics) ModuleFailed(module string, err error) {
	if err == nil {
		m.moduleFailed.DeleteLabelValues(module)
		return
	}
	m.moduleFailed.WithLabelValues(module).Set(1)
}

// HookRun implements module.Metrics.
func (m *metrics) HookRun(r hookrun.HookRun) {
	m.hooks.observe(r)
	if r.Module == "" {
		m.countForbidden(messages.OwnerGlobal, r.Err) // a module's hook fails its module run, counted there
	}
	if len(r.Result.Metrics) > 0 {
		m.hookStore.apply(r.Module, r.Hook, r.Result.Metrics)
	}
}

func (m *metrics) registerInspector(r *inspect.Registry) {
	m.register(m.reg, inspect.NewCollector(r, m.prefix))
}

func (m *metrics) register(reg *prometheus.Registry, cs ...prometheus.Collector) {
	reg.MustRegister(cs...)
	m.collectors = append(m.collectors, cs...)
}

var fqName = regexp.MustCompile(`fqName: "([^"]+)"`)

// names lists every metric name the operator exports on /metrics.
func (m *metrics) names() []string {
	ch := make(chan *prometheus.Desc, 64)
	go func() {
		for _, c := range m.collectors {
			c.Describe(ch)
		}
		close(ch)
	}()
	var out []string
	for d := range ch {
		if sub := fqName.FindStringSubmatch(d.String()); sub != nil {
			out = append(out, sub[1])
		}
	}
	return out
}

func (m *metrics) queues(s messages.QueueSnapshot) {
	m.headInfo.publish(s)
	for _, q := range s.Queues {
		m.queueLength.WithLabelValues(q.Name).Set(float64(len(q.Tasks)))
		if len(q.Tasks) == 0 {
			m.headAttempts.WithLabelValues(q.Name).Set(0)
			m.headSince.WithLabelValues(q.Name).Set(0)
			delete(m.heads, q.Name)
			continue
		}
		head := q.Tasks[0]
		m.headAttempts.WithLabelValues(q.Name).Set(float64(head.Attempts))
		if m.heads[q.Name] != head.ID {
			m.heads[q.Name] = head.ID
			m.headSince.WithLabelValues(q.Name).Set(float64(s.At.Unix()))
		}
	}
}

func (m *metrics) taskDropped(t messages.Task, _ string) {
	m.dropped.WithLabelValues(t.Queue, string(t.Kind)).Inc()
}

func (m *metrics) converged(d time.Duration, a messages.Activation) {
	m.convergence.WithLabelValues(string(a)).Add(d.Seconds())
	m.convergences.WithLabelValues(string(a)).Inc()
}
