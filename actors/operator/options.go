package operator

import (
	"log/slog"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/supervision"
)

// Counter counts events (a prometheus.Counter is one).
type Counter interface{ Inc() }

// published is what the lifecycle reads of the published state (a part of
// board.Reader): the global hooks' enabled flags for every Step, whether a
// converge was done before a restart of the root, and a module's state,
// to show it failed.
type published interface {
	DynamicEnabled() map[string]bool
	Ready() bool
	Module(name string) (board.ModuleState, bool)
}

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
	// Board is where the lifecycle publishes, and what it reads back
	// (published).
	Board    *board.Board
	Releases Releases
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
	// Converged is told the duration of every finished converge, and what
	// started it.
	Converged func(time.Duration, messages.Activation)
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
