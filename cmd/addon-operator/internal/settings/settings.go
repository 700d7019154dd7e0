package settings

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/addon-actors/addon-operator/chartrun/crds"
	"github.com/addon-actors/addon-operator/hookexec"
	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/supervision"
)

// Settings are the operator's settings.
type Settings struct {
	// Unsupported are the original's settings that are set but not read
	// here; start-up warns about each.
	Unsupported      []Unsupported
	ModulesDirs      []string
	GlobalHooksDir   string
	Namespace        string
	ConfigMap        string
	ListenAddress    string
	ListenPort       int
	HTTPAuth         string
	TmpDir           string
	MetricsPrefix    string
	HA               bool
	Lease            LeaseTimes
	Pod              string
	KubeConfig       string
	KubeContext      string
	KubeServer       string
	KubeQPS          float32
	KubeBurst        int
	LogLevel         string
	LogType          string
	LogNoTime        bool
	DebugSocket      string
	HelmIgnore       string
	Helm             Helm
	HookEnvAllowlist string
	CheckInterval    time.Duration
	// Drift is the drift mode: report, restore or off.
	Drift string
	// WaitReady makes module runs wait for their release's workloads
	// after helm, for at most WaitReadyTimeout; module.yaml's readiness
	// overrides both per module.
	WaitReady            bool
	WaitReadyTimeout     time.Duration
	ModulesCheckInterval time.Duration
	ShutdownGrace        time.Duration
	Policy               supervision.Policy
	Hooks                HookLimits
	// HookFiles cap the output files of a hook run (hookfiles.go).
	HookFiles hookexec.OutputCaps
	// HookConfigConcurrency is how many modules run their hooks' --config
	// at once (hookconfig.go); 0: the operator's default.
	HookConfigConcurrency int
	// CRDFilterPrefixes and CRDExtraLabels are the settings of modules'
	// crds/ (layout.ParseCRDFilterPrefixes, crds.ParseExtraLabels).
	CRDFilterPrefixes string
	CRDExtraLabels    string
	ObjectPatcher     ClientLimits
	// ParallelModuleRuns > 1 runs the module runs of one weight in that
	// many parallel queues; 1 runs them one by one in main.
	ParallelModuleRuns int
	// UnnumberedModulesOrder, when set, is the order of a module dir
	// without a numeric prefix, as the original's weight; nil: such modules
	// run after the numbered ones.
	UnnumberedModulesOrder *int
	// Webhooks are the webhook servers' settings.
	Webhooks Webhooks
	// ModuleConfigWebhook is the ModuleConfig webhook's
	// (moduleconfigwebhook.go).
	ModuleConfigWebhook ModuleConfigWebhook
	// ModuleObjects writes the Module objects and their Events; false
	// leaves the objects as they are.
	ModuleObjects bool
	// Remediation is what follows a failed release, for every module
	// (remediation.go); a module.yaml's remediation wins.
	Remediation layout.Remediation
	// ModuleConfigs reads the ModuleConfig objects (moduleconfigs.go).
	ModuleConfigs bool
}

// Helm bounds the helm calls: revisions kept per release (HELM_HISTORY_MAX)
// and the time of one install, upgrade, rollback or uninstall (HELM_TIMEOUT).
type Helm struct {
	HistoryMax int
	Timeout    time.Duration
}

// ClientLimits are a Kubernetes client's QPS, burst and request timeout
// (0: none); the object patcher's are OBJECT_PATCHER_KUBE_CLIENT_*.
type ClientLimits struct {
	QPS     float32
	Burst   int
	Timeout time.Duration
}

// HookLimits bound a hook run: its time (Timeout, 0: none), when a run
// still going is warned about (SlowThreshold, 0: never), and the log
// records of its output per stream (0: no limit).
type HookLimits struct {
	Timeout        time.Duration
	SlowThreshold  time.Duration
	MaxOutputLines int
	MaxOutputBytes int
	// ContextWarnBytes is the binding context file size past which a run
	// is logged at WARN, once per hook and binding (0: never).
	ContextWarnBytes int
	// QueuedContextBytes bounds the binding contexts a waiting run holds
	// for its hook's events: past it they merge by object (0: no bound).
	QueuedContextBytes int
	// ProbeTimeout bounds `hook list` and `hook config` of batch hook
	// discovery.
	ProbeTimeout time.Duration
	// KeepFiles leaves each run's files in the tmp dir
	// (DEBUG_KEEP_TMP_FILES).
	KeepFiles bool
}

// LeaseTimes are the leader election's: a leader that cannot renew its
// Lease within RenewDeadline stops; another replica takes an unrenewed
// Lease after Duration; candidates try every RetryPeriod.
type LeaseTimes struct {
	Duration, RenewDeadline, RetryPeriod time.Duration
}

// The values of ADDON_OPERATOR_HTTP_AUTH (Settings.HTTPAuth), which guards
// the HTTP port's /metrics, /metrics/hooks and /queue: off, or kubernetes
// (TokenReview and SubjectAccessReview).
const (
	HTTPAuthOff        = "off"
	HTTPAuthKubernetes = "kubernetes"
)

// ErrBadSetting marks a setting that cannot be used.
var ErrBadSetting = errors.New("bad setting")

// setting is one flag with its variables (the first set one counts).
type setting struct {
	flag, def, help string
	env             []string
}

// table lists the settings; a function, so that nothing package-level can
// be changed.
func table() []setting {
	return append([]setting{
		{"modules-dir", "/modules", "modules directories, colon-separated", []string{"ADDON_OPERATOR_MODULES_DIR", "MODULES_DIR"}},
		{"global-hooks-dir", "/global-hooks", "global hooks directory", []string{"ADDON_OPERATOR_GLOBAL_HOOKS_DIR", "SHELL_OPERATOR_HOOKS_DIR", "GLOBAL_HOOKS_DIR"}},
		{"namespace", "", "namespace of the operator's ConfigMap and releases (required)", []string{"ADDON_OPERATOR_NAMESPACE", "SHELL_OPERATOR_NAMESPACE"}},
		{"config-map", "addon-operator", "name of the operator's ConfigMap", []string{"ADDON_OPERATOR_CONFIG_MAP"}},
		{"listen-address", "0.0.0.0", "HTTP listen address", []string{"ADDON_OPERATOR_LISTEN_ADDRESS", "SHELL_OPERATOR_LISTEN_ADDRESS"}},
		{"listen-port", "9115", "HTTP listen port", []string{"ADDON_OPERATOR_LISTEN_PORT", "SHELL_OPERATOR_LISTEN_PORT"}},
		{"http-auth", HTTPAuthOff, "who may get /metrics, /metrics/hooks and /queue on the HTTP port: off (anyone) or kubernetes (a bearer token whose user the apiserver allows to get the path, a non-resource URL); /healthz and /readyz stay open", []string{"ADDON_OPERATOR_HTTP_AUTH"}},
		{"tmp-dir", filepath.Join(os.TempDir(), "addon-operator"), "directory for hook run files", []string{"ADDON_OPERATOR_TMP_DIR", "SHELL_OPERATOR_TMP_DIR"}},
		{"prometheus-metrics-prefix", "addon_operator_", "prefix of metric names", []string{"ADDON_OPERATOR_PROMETHEUS_METRICS_PREFIX", "SHELL_OPERATOR_PROMETHEUS_METRICS_PREFIX"}},
		{"ha", "false", "run with leader election", []string{"ADDON_OPERATOR_HA"}},
		{"ha-lease-duration", "35s", "leader election: how long a Lease not renewed stays taken", []string{"ADDON_OPERATOR_HA_LEASE_DURATION"}},
		{"ha-renew-deadline", "30s", "leader election: a leader that cannot renew for this long stops and exits", []string{"ADDON_OPERATOR_HA_RENEW_DEADLINE"}},
		{"ha-retry-period", "10s", "leader election: how often candidates try the Lease", []string{"ADDON_OPERATOR_HA_RETRY_PERIOD"}},
		{"pod", "", "pod name, the leader election identity", []string{"ADDON_OPERATOR_POD"}},
		{"kube-config", "", "kubeconfig path; in-cluster config when empty", []string{"KUBE_CONFIG", "KUBECONFIG"}},
		{"kube-context", "", "kubeconfig context", []string{"KUBE_CONTEXT"}},
		{"kube-server", "", "Kubernetes API server URL, over the kubeconfig's or the in-cluster one", []string{"KUBE_SERVER"}},
		{"kube-client-qps", "50", "Kubernetes client QPS", []string{"KUBE_CLIENT_QPS"}},
		{"kube-client-burst", "100", "Kubernetes client burst", []string{"KUBE_CLIENT_BURST"}},
		{"object-patcher-kube-client-qps", "50", "QPS of the client that applies hooks' object patches", []string{"OBJECT_PATCHER_KUBE_CLIENT_QPS"}},
		{"object-patcher-kube-client-burst", "100", "burst of the client that applies hooks' object patches", []string{"OBJECT_PATCHER_KUBE_CLIENT_BURST"}},
		{"object-patcher-kube-client-timeout", "10s", "request timeout of the client that applies hooks' object patches (0: none)", []string{"OBJECT_PATCHER_KUBE_CLIENT_TIMEOUT"}},
		{"log-level", "info", "debug, info, warn or error", []string{"LOG_LEVEL"}},
		{"log-type", "text", "json or text", []string{"LOG_TYPE"}},
		{"log-no-time", "false", "leave the time out of log records", []string{"LOG_NO_TIME"}},
		{"debug-unix-socket", "/var/run/addon-operator/debug.socket", "debug API socket", []string{"DEBUG_UNIX_SOCKET"}},
		{"helm-ignore-release", "", "release never purged", []string{"HELM_IGNORE_RELEASE"}},
		{"helm-history-max", "10", "revisions helm keeps per release", []string{"HELM_HISTORY_MAX"}},
		{"helm-timeout", "20m", "time limit of one helm install, upgrade, rollback or uninstall", []string{"HELM_TIMEOUT"}},
		{"hook-env-allowlist", "", "variables hooks inherit (names, PREFIX_*); all when empty", []string{"HOOK_ENV_ALLOWLIST"}},
		{"resources-check-interval", "1m", "how often releases are checked for deleted objects and drift (0 disables)", []string{"ADDON_OPERATOR_RESOURCES_CHECK_INTERVAL"}},
		{"drift", "report", "release objects that differ from their manifest: report (WARN, metric, module why), restore (also put the manifest's fields back) or off; module.yaml `drift:` overrides it per module", []string{"ADDON_OPERATOR_DRIFT"}},
		{"wait-ready", "false", "wait after a module's helm install or upgrade until its release's workloads are ready (Deployments, StatefulSets, DaemonSets available, Jobs complete, PVCs bound, CRDs established) before afterHelm; module.yaml `readiness.wait` overrides it per module", []string{"ADDON_OPERATOR_WAIT_READY"}},
		{"wait-ready-timeout", "5m", "how long that wait may take; past it the module run fails naming what is not ready, and is retried; module.yaml `readiness.timeout` overrides it per module", []string{"ADDON_OPERATOR_WAIT_READY_TIMEOUT"}},
		{"modules-check-interval", "1m", "how often the modules dirs are checked for modules added or removed and for a changed module.yaml (0 disables)", []string{"ADDON_OPERATOR_MODULES_CHECK_INTERVAL"}},
		{"crd-filter-prefixes", "doc-,_", "base-name prefixes of modules' crds/ files that are not applied, comma-separated (\",\": none)", []string{"ADDON_OPERATOR_CRD_FILTER_PREFIXES"}},
		{"crd-extra-labels", "heritage=addon-operator", "labels set on the CRDs of modules' crds/ (a=b,c=d; heritage=addon-operator added without a heritage key)", []string{"ADDON_OPERATOR_CRD_EXTRA_LABELS"}},
		{"shutdown-grace", "30s", "how long a running hook or helm call may finish on SIGTERM", []string{"ADDON_OPERATOR_SHUTDOWN_GRACE"}},
		{"hook-timeout", "0", "a hook run's time limit: past it the hook's process group is killed and the run fails (0: none)", []string{"ADDON_OPERATOR_HOOK_TIMEOUT"}},
		{"hook-slow-threshold", "1m", "a hook run still going after this is logged at WARN, again each time its running time doubles (0: never)", []string{"ADDON_OPERATOR_HOOK_SLOW_THRESHOLD"}},
		{"hook-output-max-lines", "1000", "output lines of a hook run logged per stream; the rest is counted as dropped (0: no limit)", []string{"ADDON_OPERATOR_HOOK_OUTPUT_MAX_LINES"}},
		{"hook-output-max-bytes", "1048576", "output bytes of a hook run logged per stream; the rest is counted as dropped (0: no limit)", []string{"ADDON_OPERATOR_HOOK_OUTPUT_MAX_BYTES"}},
		{"queued-contexts-max-bytes", "268435456", "binding context bytes a waiting hook run holds for its hook's events; past it, later events merge by object (each object's latest event replaces its earlier ones) and a WARN says so (0: no bound)", []string{"ADDON_OPERATOR_QUEUED_CONTEXTS_MAX_BYTES"}},
		{"hook-context-warn-bytes", "67108864", "binding context file size past which a hook run is logged at WARN, once per hook and binding (0: never)", []string{"ADDON_OPERATOR_HOOK_CONTEXT_WARN_BYTES"}},
		{"parallel-module-runs", "1", "module runs of one weight (dir prefix) that run at once in parallel queues parallel_queue_K; 1: one by one in main", []string{"ADDON_OPERATOR_PARALLEL_MODULE_RUNS"}},
		{"unnumbered-modules-order", "", "order (weight) of a module dir without a numeric prefix, as the original's setting; unset: such modules run after the numbered ones", []string{"ADDON_OPERATOR_UNNUMBERED_MODULES_ORDER", "UNNUMBERED_MODULE_ORDER"}},
		{"debug-keep-tmp-files", "false", "keep each hook run's files (binding context, values, patches) in the tmp dir, for debugging", []string{"DEBUG_KEEP_TMP_FILES"}},
		{"module-objects", "true", "write a Module object (modules.addon-operator.io) per module and one named global, with status, conditions and Events; false turns it off and leaves the objects as they are", []string{"ADDON_OPERATOR_MODULE_OBJECTS"}},
		{"batch-hook-probe-timeout", "10s", "time limit of `hook list` and `hook config` when batch hooks are discovered; past it discovery fails naming the file", []string{"ADDON_OPERATOR_BATCH_HOOK_PROBE_TIMEOUT"}},
	}, slices.Concat(webhookTable(), hookFileTable(), moduleConfigWebhookTable(), remediationTable(), moduleConfigTable(), hookConfigTable())...)
}

// Load reads the settings of `addon-operator start`.
func Load(args []string, lookup func(string) (string, bool), usage io.Writer) (Settings, error) {
	fs := flag.NewFlagSet("start", flag.ContinueOnError)
	fs.SetOutput(usage)
	raw := map[string]*string{}
	repeatable := repeatableFlags()
	for _, s := range table() {
		raw[s.flag] = new(string)
		usage := fmt.Sprintf("%s (env %s, default %q)", s.help, strings.Join(s.env, " or "), s.def)
		if repeatable[s.flag] {
			fs.Var((*listFlag)(raw[s.flag]), s.flag, usage)
			continue
		}
		fs.StringVar(raw[s.flag], s.flag, "", usage)
	}
	if err := fs.Parse(args); err != nil {
		return Settings{}, err
	}
	if err := refuseRemoved(lookup); err != nil {
		return Settings{}, err
	}
	values := map[string]string{}
	names := map[string]string{}
	for _, s := range table() {
		values[s.flag], names[s.flag] = resolve(s, *raw[s.flag], lookup)
	}
	st, err := convert(values, names)
	if err != nil {
		return Settings{}, err
	}
	if st.Policy, err = supervision.PolicyFromEnv(lookup); err != nil {
		return Settings{}, err
	}
	st.Unsupported = unsupported(lookup)
	return st, nil
}

// resolve picks the flag, else the first variable set, else the default,
// and says where the value came from.
func resolve(s setting, flagValue string, lookup func(string) (string, bool)) (string, string) {
	if flagValue != "" {
		return flagValue, "--" + s.flag
	}
	for _, env := range s.env {
		if v, ok := lookup(env); ok && v != "" {
			return v, env
		}
	}
	return s.def, "default of --" + s.flag
}

func convert(v, from map[string]string) (Settings, error) {
	c := converter{from: from}
	st := Settings{
		ModulesDirs: split(v["modules-dir"], ":"), GlobalHooksDir: v["global-hooks-dir"],
		Namespace: v["namespace"], ConfigMap: v["config-map"], ListenAddress: v["listen-address"],
		ListenPort: c.port(v, "listen-port"), HTTPAuth: strings.ToLower(v["http-auth"]), TmpDir: v["tmp-dir"], MetricsPrefix: v["prometheus-metrics-prefix"],
		HA: c.boolean(v, "ha"), Lease: c.lease(v), Pod: v["pod"], KubeConfig: v["kube-config"], KubeContext: v["kube-context"],
		KubeServer: v["kube-server"], LogNoTime: c.boolean(v, "log-no-time"),
		Helm:    Helm{HistoryMax: c.positive(v, "helm-history-max"), Timeout: c.duration(v, "helm-timeout")},
		KubeQPS: float32(c.float(v, "kube-client-qps")), KubeBurst: c.integer(v, "kube-client-burst"),
		LogLevel: strings.ToLower(v["log-level"]), LogType: strings.ToLower(v["log-type"]),
		DebugSocket: v["debug-unix-socket"], HelmIgnore: v["helm-ignore-release"], HookEnvAllowlist: v["hook-env-allowlist"],
		CheckInterval: c.duration(v, "resources-check-interval"), ModulesCheckInterval: c.duration(v, "modules-check-interval"),
		ShutdownGrace: c.duration(v, "shutdown-grace"), Hooks: c.hookLimits(v), HookFiles: c.hookFiles(v),
		HookConfigConcurrency: c.integer(v, "hook-config-concurrency"),
		ObjectPatcher: ClientLimits{QPS: float32(c.float(v, "object-patcher-kube-client-qps")),
			Burst: c.integer(v, "object-patcher-kube-client-burst"), Timeout: c.duration(v, "object-patcher-kube-client-timeout")},
		CRDFilterPrefixes: v["crd-filter-prefixes"], CRDExtraLabels: v["crd-extra-labels"],
		ParallelModuleRuns: c.positive(v, "parallel-module-runs"), Drift: strings.ToLower(v["drift"]),
		WaitReady: c.boolean(v, "wait-ready"), WaitReadyTimeout: c.duration(v, "wait-ready-timeout"),
		Webhooks: c.webhooks(v), UnnumberedModulesOrder: c.optionalOrder(v, "unnumbered-modules-order"),
		ModuleObjects: c.boolean(v, "module-objects"), Remediation: c.remediation(v), ModuleConfigs: c.boolean(v, "module-configs"),
	}
	st.ModuleConfigWebhook = c.moduleConfigWebhook(v, st.Webhooks.Admission)
	if st.WaitReadyTimeout == 0 {
		c.bad(v, "wait-ready-timeout", "a duration above 0")
	}
	if _, err := crds.ParseExtraLabels(st.CRDExtraLabels); err != nil {
		c.fail("%s: %v", c.from["crd-extra-labels"], err)
	}
	c.oneOf(st.LogLevel, "log-level", "debug", "info", "warn", "error")
	c.oneOf(st.LogType, "log-type", "json", "text")
	c.oneOf(st.Drift, "drift", layout.DriftModes...)
	c.oneOf(st.HTTPAuth, "http-auth", HTTPAuthOff, HTTPAuthKubernetes)
	if st.Namespace == "" {
		c.fail("ADDON_OPERATOR_NAMESPACE (or --namespace) must be set")
	}
	return st, errors.Join(c.errs...)
}

// lease reads the leader election's times; each must be shorter than the
// one before, as client-go requires.
func (c *converter) lease(v map[string]string) LeaseTimes {
	l := LeaseTimes{Duration: c.duration(v, "ha-lease-duration"), RenewDeadline: c.duration(v, "ha-renew-deadline"),
		RetryPeriod: c.duration(v, "ha-retry-period")}
	if l.RetryPeriod <= 0 || l.RenewDeadline <= l.RetryPeriod || l.Duration <= l.RenewDeadline {
		c.fail("%s=%s, %s=%s, %s=%s: want lease duration > renew deadline > retry period > 0",
			c.from["ha-lease-duration"], l.Duration, c.from["ha-renew-deadline"], l.RenewDeadline,
			c.from["ha-retry-period"], l.RetryPeriod)
	}
	return l
}

func (c *converter) hookLimits(v map[string]string) HookLimits {
	return HookLimits{Timeout: c.duration(v, "hook-timeout"), SlowThreshold: c.duration(v, "hook-slow-threshold"),
		MaxOutputLines: c.integer(v, "hook-output-max-lines"), MaxOutputBytes: c.integer(v, "hook-output-max-bytes"),
		ContextWarnBytes: c.integer(v, "hook-context-warn-bytes"), QueuedContextBytes: c.integer(v, "queued-contexts-max-bytes"), ProbeTimeout: c.duration(v, "batch-hook-probe-timeout"),
		KeepFiles: c.boolean(v, "debug-keep-tmp-files")}
}

// split is the items of a list separated by sep, trimmed; empty items are
// dropped.
func split(s, sep string) []string {
	var out []string
	for _, item := range strings.Split(s, sep) {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}

// converter parses values and collects every error.
type converter struct {
	from map[string]string
	errs []error
}

func (c *converter) fail(format string, args ...any) {
	c.errs = append(c.errs, fmt.Errorf("%w: "+format, append([]any{ErrBadSetting}, args...)...))
}

func (c *converter) bad(v map[string]string, key, want string) {
	c.fail("%s=%q: want %s", c.from[key], v[key], want)
}

func (c *converter) integer(v map[string]string, key string) int {
	n, err := strconv.Atoi(v[key])
	if err != nil || n < 0 {
		c.bad(v, key, "a non-negative integer")
	}
	return n
}

func (c *converter) positive(v map[string]string, key string) int {
	n, err := strconv.Atoi(v[key])
	if err != nil || n < 1 {
		c.bad(v, key, "a positive integer")
	}
	return n
}

// optionalOrder reads a module order (an unsigned 31-bit number, as the
// original reads it); nil when the setting is empty.
func (c *converter) optionalOrder(v map[string]string, key string) *int {
	if v[key] == "" {
		return nil
	}
	n, err := strconv.ParseUint(v[key], 10, 31)
	if err != nil {
		c.bad(v, key, "a non-negative integer below 2^31")
		return nil
	}
	order := int(n)
	return &order
}

func (c *converter) port(v map[string]string, key string) int {
	n := c.integer(v, key)
	if n > 65535 {
		c.bad(v, key, "a port number")
	}
	return n
}

func (c *converter) float(v map[string]string, key string) float64 {
	f, err := strconv.ParseFloat(v[key], 64)
	if err != nil || f <= 0 {
		c.bad(v, key, "a positive number")
	}
	return f
}

func (c *converter) boolean(v map[string]string, key string) bool {
	b, err := strconv.ParseBool(v[key])
	if err != nil {
		c.bad(v, key, "true or false")
	}
	return b
}

func (c *converter) duration(v map[string]string, key string) time.Duration {
	d, err := time.ParseDuration(v[key])
	if err != nil || d < 0 {
		c.bad(v, key, "a duration like 30s")
	}
	return d
}

func (c *converter) oneOf(value, key string, allowed ...string) {
	for _, a := range allowed {
		if value == a {
			return
		}
	}
	c.fail("%s=%q: want one of %s", c.from[key], value, strings.Join(allowed, ", "))
}
