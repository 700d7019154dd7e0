package operator

import (
	"fmt"
	"time"

	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/values"
)

// Env is what the lifecycle reads for each Step: the clock's time and the
// global hooks' enabled flags as published.
type Env struct {
	Now     time.Time
	Dynamic map[string]bool
}

// CoreOptions are what the core is built with: the settings it decides
// with and the state it starts from.
type CoreOptions struct {
	// KubeVersion is checked against module.yaml's requirements.kubernetes.
	KubeVersion string
	// IgnoreRelease is never purged (HELM_IGNORE_RELEASE).
	IgnoreRelease string
	// ParallelModuleRuns > 1 runs the module runs of a weight of two or
	// more modules in that many parallel queues.
	ParallelModuleRuns int
	// Rescan: every discovery after the first converge reads the modules
	// dirs again (the operator can start module actors).
	Rescan bool

	Modules []layout.Definition // in module order
	// Unloaded are the module dirs there but not loadable; Unseen the
	// modules whose dir cannot be seen, with the reason.
	Unloaded []string
	Unseen   map[string]string
	// Failed are the modules whose actor cannot start, Enabled those the
	// last discovery enabled, Config the ConfigMap's sections: the
	// operator starts without them, `plan` takes them from the board and
	// its candidate.
	Failed  []string
	Enabled []string
	Config  values.Sections
	// Ready: a converge was done before (the board says so after a
	// restart of the root; plan's operator has converged).
	Ready bool
}

// Core is the operator's decision state (spec/LIFECYCLE.md): start-up,
// discovery, the converge and its module run graph, the modules dirs. It
// is pure: the lifecycle feeds it events with Step and carries out the
// effects it returns, in order.
type Core struct {
	opts     CoreOptions
	modules  []layout.Definition // in module order
	config   values.Sections
	boot     boot
	ready    bool            // the first converge is done
	enabled  map[string]bool // modules enabled by the last discovery
	sit      sitOut          // the modules discovery leaves as they are, and why
	disc     *discovery
	scanning bool // a scan of the modules dirs is on its way
	current  hookrun.Assigned
	timer    convergeTimer // the converge in progress
	group    *runGraph     // the ParallelModuleRun in flight
	// superseded notes, by module, what last dropped or replaced its run;
	// modulesError why the modules dirs were refused (a requirements cycle).
	superseded   map[string]board.Superseded
	modulesError string
	fatalTold    bool
}

// NewCore returns a core built with opts.
func NewCore(opts CoreOptions) *Core {
	c := &Core{opts: opts, modules: opts.Modules, config: opts.Config, ready: opts.Ready, enabled: map[string]bool{},
		sit: sitOut{failed: map[string]string{}, unseen: opts.Unseen, unloaded: opts.Unloaded}}
	for _, name := range opts.Failed {
		c.sit.failed[messages.ModuleOwner(name)] = failedToStart
	}
	for _, name := range opts.Enabled {
		c.enabled[name] = true
	}
	return c
}

// Modules are the modules in force, in module order.
func (c *Core) Modules() []layout.Definition { return c.modules }

// LeftOut says why discovery leaves a module as it is, "" when it does not
// (held is decided when a discovery starts).
func (c *Core) LeftOut(name string) string { return c.sit.why(name) }

// Step applies ev and returns the effects.
func (c *Core) Step(ev Event, env Env) []Effect {
	switch e := ev.(type) {
	case ChildrenSpawned:
		return c.childrenSpawned(e)
	case ConfigChanged:
		return c.configChanged(e.Msg)
	case ConfigInvalid:
		return c.configInvalid(e.Msg)
	case OwnerReady:
		return c.ownerReady(e.Msg)
	case ConfigApplied:
		return c.configApplied(e.Msg, env)
	case KubeSynced:
		return c.kubeSynced(e.Msg)
	case TaskAssigned:
		return c.runTask(e.Assigned, env)
	case EnabledAnswered:
		return c.enabledAnswered(e.Msg)
	case ModulesScanned:
		return c.modulesScanned(e, env)
	case ModulesSpawned:
		return c.modulesSpawned(e, env)
	case ReleasesListed:
		return c.releasesListed(e, env)
	case ReleaseDeleted:
		return c.releaseDeleted(e)
	case GroupReported:
		return c.groupReported(e.Report)
	case Superseded:
		return c.convergeSuperseded(e.Msg, env)
	case ChildStopped:
		return c.childStopped(e)
	case ReconcileAsked:
		return c.reconcile(e.Msg)
	default:
		panic(fmt.Sprintf("operator: event %T has no case in Step", ev))
	}
}

// finish answers the running task's queue.
func (c *Core) finish(d messages.TaskDone) Effect {
	d.ID, d.Queue = c.current.Task.ID, c.current.Task.Queue
	return FinishTask{To: c.current.Queue, Done: d}
}
