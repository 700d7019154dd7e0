package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"

	"github.com/addon-actors/addon-operator/actors/operator"
	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/settings"
	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/whatif"
	"github.com/addon-actors/addon-operator/hookexec"
	"github.com/addon-actors/addon-operator/layout"
	mcconversion "github.com/addon-actors/addon-operator/moduleconfig/conversion"
	"github.com/addon-actors/addon-operator/supervision"
	"github.com/addon-actors/addon-operator/values"
	"github.com/addon-actors/addon-operator/values/schema"
)

// Helm is what the app needs of chartrun: module releases and the list
// and purge of owned releases.
type Helm interface {
	worker.Releaser
	operator.Releases
	Render(ctx context.Context, release, chartDir string, values map[string]any) (string, error)
}

// Config is everything the operator is built from.
type Config struct {
	ModulesDirs    []string
	GlobalHooksDir string
	Namespace      string
	ConfigMap      string
	TmpDir         string
	Environ        []string
	EnvAllowlist   string
	Policy         supervision.Policy
	IgnoreRelease  string
	MetricsPrefix  string
	Rest           *rest.Config
	Helm           Helm
	Log            *slog.Logger
	Clock          supervision.Clock
	// CheckInterval is how often an enabled module's release is checked for
	// objects someone deleted or changed; 0 disables the check.
	CheckInterval time.Duration
	// Drift is the drift mode of modules whose module.yaml says none:
	// report, restore or off ("" is report).
	Drift string
	// WaitReady makes module runs wait for their release's workloads after
	// helm, for at most WaitReadyTimeout (0: chartrun's default), unless
	// their module.yaml says otherwise.
	WaitReady        bool
	WaitReadyTimeout time.Duration
	// Remediation is what follows a failed release (ADDON_OPERATOR_REMEDIATION_*).
	Remediation layout.Remediation
	// ModulesCheckInterval is how often the modules dirs are looked at for
	// modules added or removed (0: only at converges).
	ModulesCheckInterval time.Duration
	// ParallelModuleRuns > 1 runs the module runs of one weight in that
	// many parallel queues (ADDON_OPERATOR_PARALLEL_MODULE_RUNS).
	ParallelModuleRuns int
	// HookConfigConcurrency is how many modules run their hooks' --config
	// at once (ADDON_OPERATOR_HOOK_CONFIG_CONCURRENCY); 0: configureSlots.
	HookConfigConcurrency int
	// UnnumberedModulesOrder, when set, is the order of a module dir
	// without a numeric prefix (ADDON_OPERATOR_UNNUMBERED_MODULES_ORDER);
	// nil: such modules run after the numbered ones.
	UnnumberedModulesOrder *int
	// Hooks bound hook runs: time limit, slow-run warnings, output.
	Hooks settings.HookLimits
	// HookFiles cap the output files of hook runs (0: the defaults).
	HookFiles hookexec.OutputCaps
	// CRDFilterPrefixes and CRDExtraLabels: modules' crds/ (empty: the
	// defaults, doc-,_ and heritage=addon-operator).
	CRDFilterPrefixes string
	CRDExtraLabels    string
	// ObjectPatcher limits the client of hooks' object patches
	// (OBJECT_PATCHER_KUBE_CLIENT_QPS, _BURST, _TIMEOUT); zero fields take
	// the operator's client settings (QPS, burst) or none (timeout).
	ObjectPatcher settings.ClientLimits
	// Webhooks are the settings of the servers of hooks' webhook
	// bindings (started only when some hook has one).
	Webhooks settings.Webhooks
	// ModuleObjects writes the Module objects (modules.addon-operator.io)
	// and their Events (ADDON_OPERATOR_MODULE_OBJECTS).
	ModuleObjects bool
	// ModuleConfigWebhook is the ModuleConfig validating webhook's server
	// and registration (served only with its certificate).
	ModuleConfigWebhook settings.ModuleConfigWebhook
	// ModuleConfigReviews, when set, is the process's ModuleConfig webhook
	// server (ServeModuleConfigReviews: served while this replica follows),
	// which Start takes over and registers; nil: Start serves its own.
	ModuleConfigReviews *ModuleConfigReviews
	// ModuleConfigs reads the ModuleConfig objects as a second source of
	// configuration (ADDON_OPERATOR_MODULE_CONFIGS).
	ModuleConfigs bool
}

// noLimit is hookexec's "no limit" for a 0 setting.
func noLimit(n int) int {
	if n == 0 {
		return -1
	}
	return n
}

// App is a running operator.
type App struct {
	System   *operator.System
	Board    *board.Board
	Registry *prometheus.Registry
	// HookRegistry holds the metrics hooks write ($METRICS_PATH), for
	// /metrics/hooks.
	HookRegistry *prometheus.Registry
	Runner       *hookexec.Runner
	fatal        chan error
	log          *slog.Logger
	// cancelWork cancels the hooks and helm calls still running when the
	// shutdown grace period is over.
	cancelWork context.CancelFunc
	clock      supervision.Clock
	stopped    chan struct{}
	stopOnce   sync.Once
	helm       Helm
	scan       operator.Scanner
	planner    *whatif.Planner
	// kubeVersion is the apiserver's version read at start-up.
	kubeVersion string
	webhooks    *webhooks
	mcWebhook   *ModuleConfigReviews
	// ownsReviews: mcWebhook was started by Start, and is stopped by Stop.
	ownsReviews bool
}

// Start reads the directories and starts the actor tree.
func Start(cfg Config) (*App, error) {
	if cfg.Clock == nil {
		cfg.Clock = supervision.RealClock{}
	}
	read, err := readDirs(cfg)
	if err != nil {
		return nil, err
	}
	common, defs, globalSchemas := read.common, read.defs, read.globalSchemas
	client, dyn, mapper, err := clients(cfg)
	if err != nil {
		return nil, err
	}
	crdInstaller, err := newCRDInstaller(cfg, dyn, client.Discovery(), mapper)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(cfg.TmpDir, 0o700); err != nil {
		return nil, fmt.Errorf("tmp dir: %w", err)
	}
	work, cancelWork := context.WithCancel(context.Background())
	a := &App{Board: board.New(), Registry: prometheus.NewRegistry(), fatal: make(chan error, 1), log: cfg.Log,
		cancelWork: cancelWork, clock: cfg.Clock, stopped: make(chan struct{}), kubeVersion: kubeVersion(cfg.Log, client)}
	a.Runner = hookexec.NewRunner(hookexec.Options{Logger: cfg.Log, TmpDir: cfg.TmpDir, Environ: cfg.Environ,
		EnvAllowlist: hookexec.ParseEnvAllowlist(cfg.EnvAllowlist), Timeout: cfg.Hooks.Timeout,
		MaxOutputLines: noLimit(cfg.Hooks.MaxOutputLines), MaxOutputBytes: noLimit(cfg.Hooks.MaxOutputBytes),
		ContextWarnBytes: int64(noLimit(cfg.Hooks.ContextWarnBytes)), ProbeTimeout: cfg.Hooks.ProbeTimeout,
		KeepFiles: cfg.Hooks.KeepFiles, OutputCaps: cfg.HookFiles})
	m := newMetrics(a.Registry, cfg.MetricsPrefix)
	hookRunner, err := objectPatchRunner(cfg, mapper, a.Runner, a.Registry, m)
	if err != nil {
		return nil, err
	}
	if a.webhooks, err = newWebhooks(cfg, a, m, client, work); err != nil {
		return nil, err
	}
	a.mcWebhook, a.ownsReviews = takeModuleConfigReviews(cfg, a.Registry, client, read)
	watch := worker.NewRunWatch(cfg.Clock, cfg.Log, cfg.Hooks.SlowThreshold)
	m.registerRunWatch(watch)
	a.System = operator.NewSystem(operator.Options{Log: cfg.Log, Clock: cfg.Clock})
	m.registerInspector(a.System.Inspector)
	parts := parts{cfg: cfg, app: a, metrics: m, client: client, common: common, defs: defs,
		globalSchemas: globalSchemas, work: work, dynamic: dyn, mapper: mapper, watch: watch, crds: crdInstaller,
		runner: hookRunner, webhooks: a.webhooks,
		slots: make(chan struct{}, configureSlots(cfg.HookConfigConcurrency, runtime.GOMAXPROCS(0)))}
	root, err := a.System.StartWith(parts.children(), lifecycleOptions(cfg, a, m, parts, read))
	if err != nil {
		return nil, err
	}
	if cfg.ModuleObjects {
		if err := a.startModuleObjects(work, cfg.Namespace, cfg.Rest, defs, root); err != nil {
			return nil, err
		}
	}
	go releaseAfterStart(a.Board.ReadyCh(), a.stopped, cfg.Log)
	a.tick(m.liveTicks)
	a.helm, a.scan, a.HookRegistry = cfg.Helm, parts.scan, m.hookRegistry
	a.planner = newPlanner(cfg, a, client, common, globalSchemas, read.globalChain, parts.scan)
	return a, nil
}

// clients are the typed and dynamic clients of cfg.Rest and a REST mapper
// on the apiserver's discovery.
func clients(cfg Config) (*kubernetes.Clientset, *dynamic.DynamicClient, *restmapper.DeferredDiscoveryRESTMapper, error) {
	client, err := kubernetes.NewForConfig(cfg.Rest)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("kubernetes client: %w", err)
	}
	dyn, err := dynamic.NewForConfig(cfg.Rest)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("kubernetes dynamic client: %w", err)
	}
	return client, dyn, restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(client.Discovery())), nil
}

// releaseAfterStart returns the heap freed since the start to the system
// once the first converge is done: the initial lists of every watched
// resource were decoded meanwhile, and the runtime would otherwise hand
// their pages back only slowly, while a pod's memory limit counts them.
func releaseAfterStart(ready, stopped <-chan struct{}, log *slog.Logger) {
	select {
	case <-ready:
		debug.FreeOSMemory()
		log.Debug("memory freed during the start returned to the system")
	case <-stopped:
	}
}

// lifecycleOptions wires the lifecycle to the start-up's reading of the
// dirs, the metrics and the parts.
func lifecycleOptions(cfg Config, a *App, m *metrics, p parts, read dirsRead) operator.LifecycleOptions {
	return operator.LifecycleOptions{Modules: read.defs, Unloaded: read.unloaded, Unseen: read.unseen, Board: a.Board,
		Releases: cfg.Helm, IgnoreRelease: cfg.IgnoreRelease, Clock: cfg.Clock, Log: cfg.Log, Fatal: a.onFatal,
		ConfigErrors: m.configErrors, DiscoverErrors: m.discoverErrors, Converged: m.converged, Destructive: m.Destructive,
		Discovered: m.moduleInfo.set, Scan: p.scan, ModuleProps: p.moduleProps, DirsInterval: cfg.ModulesCheckInterval,
		ParallelModuleRuns: cfg.ParallelModuleRuns, GlobalHooksDir: cfg.GlobalHooksDir, KubeVersion: a.kubeVersion,
		Unmet:     func(u map[string][]string) { setKeys(m.unmet, u) },
		DirErrors: func(u map[string]string) { setKeys(m.unseen, u) },
		ListDirs: func() ([]string, error) {
			dirs, err := layout.ListDirs(cfg.ModulesDirs)
			return layout.ListDefinitions(dirs), err
		}}
}

// Render renders a module's chart with its current values (the debug
// API's module render), from the module's dir as it is now.
func (a *App) Render(ctx context.Context, module string) (string, error) {
	own, ok := a.Board.ModuleValues(module)
	if !ok {
		return "", fmt.Errorf("no module %q", module)
	}
	defs, errs := a.scan()
	for _, d := range defs {
		if d.Names.Name != module {
			continue
		}
		if !d.HasChart {
			return "", fmt.Errorf("module %s has no chart", module)
		}
		return a.helm.Render(ctx, module, d.Dir, values.HelmValues(a.Board.Global(), own))
	}
	return "", fmt.Errorf("module %q: its dir cannot be read now: %w", module, errors.Join(errs...))
}

// liveTickPeriod is how often live_ticks grows: a flat line means a stuck
// process.
const liveTickPeriod = 10 * time.Second

// tick increments live_ticks every period until the app stops.
func (a *App) tick(c prometheus.Counter) {
	a.clock.AfterFunc(liveTickPeriod, func() {
		select {
		case <-a.stopped:
			return
		default:
		}
		c.Inc()
		a.tick(c)
	})
}

func (a *App) onFatal(err error) {
	select {
	case a.fatal <- err:
	default:
	}
}

// Wait returns when ctx is done (nil) or start-up failed (the error).
func (a *App) Wait(ctx context.Context) error {
	select {
	case <-ctx.Done():
		return nil
	case err := <-a.fatal:
		return err
	}
}

// stopSlack is how long the actors get to stop after running work was
// cancelled at the end of the grace period.
const stopSlack = 10 * time.Second

// Stop stops the actor tree: no new task starts, a running hook or helm
// call may finish within grace and is cancelled after it.
func (a *App) Stop(grace time.Duration) error {
	a.stopOnce.Do(func() { close(a.stopped) })
	timer := a.clock.AfterFunc(grace, a.cancelWork)
	defer timer.Stop()
	err := a.System.Stop(grace + stopSlack)
	a.cancelWork()
	a.webhooks.stop()
	if a.ownsReviews {
		a.mcWebhook.Stop()
	}
	a.Runner.Close()
	return err
}

// readDirs reads $MODULES_DIR and the global schemas. A module that cannot
// be read is logged and left out; the rest run. A module dir that cannot
// be seen (a dangling symlink) is left out with its release kept, as it is
// while running. A modules dir or the global hooks dir that cannot be seen
// (an unmounted volume, a wrong path) stops start-up: converging without
// it would uninstall its modules' releases, or those of the modules its
// global hooks enable.
func readDirs(cfg Config) (dirsRead, error) {
	if err := checkGlobalHooksDir(cfg.GlobalHooksDir); err != nil {
		return dirsRead{}, err
	}
	common, err := layout.ReadCommonValues(cfg.ModulesDirs)
	if err != nil {
		return dirsRead{}, err
	}
	defs, errs := layout.ScanWith(cfg.ModulesDirs, common, cfg.scanOptions())
	if err := fatalUnseen(cfg.Log, errs); err != nil {
		return dirsRead{}, err
	}
	globalSchemas, globalChain, err := readGlobalOpenAPI(cfg.GlobalHooksDir)
	if err != nil {
		return dirsRead{}, err
	}
	if _, err := layout.RequirementOrder(defs); err != nil {
		return dirsRead{}, fmt.Errorf("MODULES_DIR: %w", err)
	}
	logModules(cfg.Log, defs)
	return dirsRead{common: common, defs: defs, unloaded: layout.Unloaded(errs), unseen: layout.UnseenModules(errs),
		globalSchemas: globalSchemas, globalChain: globalChain}, nil
}

// checkGlobalHooksDir refuses a GLOBAL_HOOKS_DIR that is not a readable
// dir: its hooks may enable modules, and without them those modules'
// releases would be uninstalled.
func checkGlobalHooksDir(dir string) error {
	if dir == "" {
		return nil
	}
	if _, err := os.ReadDir(dir); err != nil {
		return fmt.Errorf("GLOBAL_HOOKS_DIR %s cannot be read: %w; nothing is installed or uninstalled until it can "+
			"(an empty dir is fine: no global hooks)", dir, err)
	}
	return nil
}

// fatalUnseen logs the module dirs of errs that are left out, and returns
// the error of the modules dirs that cannot be seen (fatal).
func fatalUnseen(log *slog.Logger, errs []error) error {
	var unseen []string
	for _, e := range errs {
		ue := (*layout.UnseenModuleError)(nil)
		switch {
		case errors.As(e, &ue):
			log.Error("module dir cannot be seen; its release is kept, and it is neither run nor deleted until it can",
				"module", ue.Module, "dir", ue.Dir, "err", e)
		case errors.Is(e, layout.ErrUnseen):
			unseen = append(unseen, e.Error())
		default:
			log.Error("module left out", "err", e)
		}
	}
	if len(unseen) > 0 {
		return fmt.Errorf("MODULES_DIR: %s; nothing is installed or uninstalled until every modules dir can be read",
			strings.Join(unseen, "; "))
	}
	return nil
}

// logModules names the modules found, and what of their module.yaml
// changes nothing.
func logModules(log *slog.Logger, defs []layout.Definition) {
	names := make([]string, 0, len(defs))
	for _, d := range defs {
		names = append(names, d.Names.Name)
		for _, key := range d.ModuleYAMLIgnored {
			log.Debug("module.yaml field accepted; it changes nothing here", "module", d.Names.Name, "field", key)
		}
		for _, w := range d.Warnings {
			log.Warn("module definition", "module", d.Names.Name, "warning", w)
		}
	}
	log.Info("modules found", "modules", names)
}

// kubeVersion is the apiserver's version, which module.yaml's
// requirements.kubernetes is checked against; "" when it cannot be read
// (such requirements are then unmet, saying so).
func kubeVersion(log *slog.Logger, client kubernetes.Interface) string {
	v, err := client.Discovery().ServerVersion()
	if err != nil {
		log.Warn("apiserver version not read; modules that require a kubernetes version stay disabled", "err", err)
		return ""
	}
	return v.GitVersion
}

// dirsRead is what start-up read of the modules and global hooks dirs;
// unloaded are the modules whose dir is there but could not be loaded.
type dirsRead struct {
	common        values.Sections
	defs          []layout.Definition
	unloaded      []string
	unseen        map[string]string // module dirs that cannot be seen, with the reason
	globalSchemas *schema.Set
	// globalChain are the global settings' conversions
	// ($GLOBAL_HOOKS_DIR/openapi/conversions).
	globalChain mcconversion.Chain
}
