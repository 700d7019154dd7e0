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

// lifecycle is the shell of the operator's core that the root actor
// holds: it sees every message the root gets after its own handling of
// spawning and stopping children, turns it into a core event, and carries
// out the core's effects (apply.go).
type lifecycle struct {
	opts     LifecycleOptions
	children *Family
	core     *Core
	io       *actor.PID // the ioActor child, which does the blocking I/O
}

func newLifecycle(opts LifecycleOptions) *lifecycle {
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	core := NewCore(CoreOptions{KubeVersion: opts.KubeVersion, IgnoreRelease: opts.IgnoreRelease,
		ParallelModuleRuns: opts.ParallelModuleRuns, Rescan: opts.Scan != nil && opts.ModuleProps != nil,
		LookAtDirs: opts.ListDirs != nil && opts.DirsInterval > 0, GlobalHooksDir: opts.GlobalHooksDir},
		Known{Modules: opts.Modules, Unloaded: opts.Unloaded, Unseen: opts.Unseen})
	return &lifecycle{opts: opts, core: core}
}

// receive handles one message of the root actor.
func (l *lifecycle) receive(ctx actor.Context, children *Family) {
	l.children = children
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		l.handleStarted(ctx)
	case messages.ConfigChanged:
		l.step(ctx, ConfigChanged{Msg: msg})
	case messages.ConfigInvalid:
		l.step(ctx, ConfigInvalid{Msg: msg})
	case messages.OwnerReady:
		l.step(ctx, OwnerReady{Msg: msg})
	case messages.KubeSynced:
		l.step(ctx, KubeSynced{Msg: msg})
	case messages.ConfigApplied:
		l.step(ctx, ConfigApplied{Msg: msg})
	case messages.RunTask:
		l.step(ctx, TaskAssigned{Assigned: hookrun.Assigned{Task: msg.Task, Queue: ctx.Sender()}})
	case messages.EnabledChecked:
		l.step(ctx, EnabledAnswered{Msg: msg})
	case messages.GroupRunReport:
		l.step(ctx, GroupReported{Report: msg})
	case messages.ConvergeSuperseded:
		l.step(ctx, Superseded{Msg: msg})
	case DirsDue, DirsListed, ModulesScanned, ReleasesListed, ReleaseDeleted:
		l.step(ctx, msg.(Event)) // the clock's and the ioActor's
	}
}

func (l *lifecycle) handleStarted(ctx actor.Context) {
	l.io = ctx.Spawn(actor.PropsFromProducer(newIOActor(l.opts.Releases, l.opts.Scan, l.opts.ListDirs, l.opts.GlobalHooksDir)))
	l.step(ctx, Started{Owners: l.started(), Ready: l.opts.Board != nil && l.opts.Board.Ready()})
}

// started are the module owners whose actor runs.
func (l *lifecycle) started() []string {
	var out []string
	for _, d := range l.opts.Modules {
		if owner := messages.ModuleOwner(d.Names.Name); l.children.PID(owner) != nil {
			out = append(out, owner)
		}
	}
	return out
}
