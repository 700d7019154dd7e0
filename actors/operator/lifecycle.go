package operator

import (
	"context"
	"log/slog"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/supervision"
	"github.com/addon-actors/addon-operator/values"
)

// Releases is what the lifecycle needs of chartrun: the releases in the
// namespace (those this operator installed, and all of them), and
// uninstalling one.
type Releases interface {
	Names(ctx context.Context) (owned, all []string, err error)
	Delete(ctx context.Context, name string) error
}

// Counter counts events (a prometheus.Counter is one).
type Counter interface{ Inc() }

// LifecycleOptions configures the operator's lifecycle.
type LifecycleOptions struct {
	Modules []layout.Definition
	// Unloaded names the modules whose dir is there but could not be
	// loaded at start-up (layout.Unloaded): left out, their releases are
	// never purged as releases without a module dir.
	Unloaded []string
	// Unseen maps the modules whose dir could not be seen at start-up (a
	// dangling symlink) to the reason: left out, their releases kept; they
	// are picked up when their dir can be seen.
	Unseen map[string]string
	// DirErrors, when set, is told the modules whose dir cannot be seen
	// whenever that set is published (module_dir_unseen).
	DirErrors func(byModule map[string]string)
	Board     *board.Board
	Releases  Releases
	// IgnoreRelease is never purged (HELM_IGNORE_RELEASE).
	IgnoreRelease string
	Clock         supervision.Clock
	Log           *slog.Logger
	// Fatal is called once when start-up cannot go on (invalid config, a
	// global hook that cannot be configured); the process should exit.
	Fatal func(error)
	// ConfigErrors counts rejected configuration (config_values_errors_total).
	ConfigErrors Counter
	// DiscoverErrors counts failed discoveries (modules_discover_errors_total).
	DiscoverErrors Counter
	// Converged is told the duration of every finished converge.
	Converged func(time.Duration)
	// Discovered, when set, is told after every successful discovery the
	// names of all modules (those left out included) and of the enabled
	// ones, in run order (mm_module_info).
	Discovered func(all, enabled []string)
	// Destructive, when set, counts each purge of a release (action
	// worker.ActionPurge), after it is logged at WARN.
	Destructive func(release string, d worker.Destructive)
	// Scan and ModuleProps, when both set, let every discovery read the
	// modules dirs again: a module whose dir appeared gets an actor (made
	// from ModuleProps), one whose dir is gone is stopped and its release
	// purged.
	Scan        Scanner
	ModuleProps func(layout.Definition) *actor.Props
	// ListDirs, every DirsInterval after the first converge, lists the
	// module dirs; when some were added or removed, all modules are
	// reloaded (0 or nil: only converges for other reasons read them).
	ListDirs     DirLister
	DirsInterval time.Duration
	// GlobalHooksDir is looked at with the module dirs: while it cannot be
	// read, an ERROR names it (the global hooks keep their last good state;
	// their runs fail and are retried until it is back).
	GlobalHooksDir string
	// ParallelModuleRuns (ADDON_OPERATOR_PARALLEL_MODULE_RUNS), when > 1,
	// runs the module runs of one weight in that many parallel queues;
	// 0 or 1: one by one in main.
	ParallelModuleRuns int
	// KubeVersion is the apiserver's version (its gitVersion), checked
	// against module.yaml's requirements.kubernetes.
	KubeVersion string
	// Unmet, when set, is told after every successful discovery the
	// modules that unmet requirements disabled, with the reasons.
	Unmet func(byModule map[string][]string)
}

// Child names the lifecycle expects among the root's children.
const (
	ChildConfig   = "config"
	ChildQueue    = "queue"
	ChildSchedule = "schedule"
	ChildKube     = "kube"
	ChildGlobal   = messages.OwnerGlobal
)

// ModuleChild is the child name of a module actor.
func ModuleChild(name string) string { return messages.ModuleOwner(name) }

// lifecycle is the state machine of spec/LIFECYCLE.md that the root actor
// holds: it sees every message the root gets after its own handling of
// spawning and stopping children.
type lifecycle struct {
	opts          LifecycleOptions
	children      *Family
	boot          boot
	config        values.Sections
	failed        map[string]bool   // modules whose hooks could not be configured
	enabled       map[string]bool   // modules enabled by the last discovery
	unseen        map[string]string // modules whose dir cannot be seen, with the reason
	unloaded      []string          // modules whose dir is there but cannot be loaded
	held          map[string]string // modules that require a skipped one, with it (layout.HeldByRequirements)
	disc          *discovery
	scanning      bool     // a scan of the modules dirs is on its way
	lastDirs      []string // the module dirs at the last look
	current       hookrun.Assigned
	io            *actor.PID // the ioActor child, which does the blocking I/O
	convergeStart time.Time
	group         *runGraph // the ParallelModuleRun in flight
	// superseded notes, by module, what last dropped or replaced its run;
	// modulesError why the modules dirs were refused (a requirements cycle).
	superseded   map[string]board.Superseded
	modulesError string
	globalDirErr string // why the global hooks dir cannot be read, at the last look
}

func newLifecycle(opts LifecycleOptions) *lifecycle {
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	return &lifecycle{opts: opts, failed: map[string]bool{}, enabled: map[string]bool{}, unloaded: opts.Unloaded,
		unseen: opts.Unseen}
}

// receive handles one message of the root actor.
func (l *lifecycle) receive(ctx actor.Context, children *Family) {
	l.children = children
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		l.handleStarted(ctx)
	case messages.ConfigChanged:
		l.handleConfigChanged(ctx, msg)
	case messages.ConfigInvalid:
		l.handleConfigInvalid(msg)
	case messages.OwnerReady:
		l.handleOwnerReady(ctx, msg)
	case messages.KubeSynced:
		l.handleKubeSynced(msg)
	case messages.ConfigApplied:
		l.handleConfigApplied(ctx, msg)
	case messages.RunTask:
		l.handleRunTask(ctx, msg)
	case messages.EnabledChecked:
		l.handleEnabledChecked(ctx, msg)
	case checkDirs:
		l.handleCheckDirs(ctx)
	case dirsListed:
		l.handleDirsListed(ctx, msg)
	case modulesScanned:
		l.handleModulesScanned(ctx, msg)
	case releasesListed:
		l.handleReleasesListed(ctx, msg)
	case releaseDeleted:
		l.handleReleaseDeleted(ctx, msg)
	case messages.GroupRunReport:
		l.handleGroupReport(ctx, msg)
	case messages.ConvergeSuperseded:
		l.handleConvergeSuperseded(msg)
	}
}

func (l *lifecycle) handleStarted(ctx actor.Context) {
	l.io = ctx.Spawn(actor.PropsFromProducer(newIOActor(l.opts.Releases, l.opts.Scan, l.opts.ListDirs, l.opts.GlobalHooksDir)))
	l.boot = newBoot(l.started())
	l.tellReaders(ctx)
	l.publishUnseen()
}

func (l *lifecycle) enqueue(ctx actor.Context, tasks ...messages.Task) {
	ctx.Send(l.children.PID(ChildQueue), messages.Enqueue{Tasks: tasks})
}

func (l *lifecycle) fatal(err error) {
	l.opts.Log.Error("start-up failed", "err", err)
	if l.opts.Fatal != nil {
		l.opts.Fatal(err)
		l.opts.Fatal = nil
	}
}
