package operator

import (
	"log/slog"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/messages"
)

// lifecycle is the shell of the operator's core that the root actor
// holds: it sees every message the root gets after its own handling of
// spawning and stopping children, turns it into a core event, and carries
// out the core's effects (apply.go).
type lifecycle struct {
	opts     LifecycleOptions
	children *Family
	core     *Core
	// read is what the lifecycle reads of the published state (nil
	// without a board); it writes through opts.Board.
	read published
	// dirs looks at the modules dirs, when LifecycleOptions.ListDirs and
	// DirsInterval are set (nil otherwise).
	dirs *DirsWatch
	io   *actor.PID // the ioActor child, which does the blocking I/O
	// outcomes are the events that effects carried out here give, for
	// step's loop.
	outcomes []Event
}

func newLifecycle(opts LifecycleOptions) *lifecycle {
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	l := &lifecycle{opts: opts}
	if opts.Board != nil {
		l.read = opts.Board
	}
	// A restart of the root builds its core again: a converge done
	// before, as the board says, is not waited for again.
	l.core = NewCore(CoreOptions{KubeVersion: opts.KubeVersion, IgnoreRelease: opts.IgnoreRelease,
		ParallelModuleRuns: opts.ParallelModuleRuns, Rescan: opts.Scan != nil && opts.ModuleProps != nil,
		Modules: opts.Modules, Unloaded: opts.Unloaded, Unseen: opts.Unseen, Ready: l.read != nil && l.read.Ready()})
	if opts.ListDirs != nil && opts.DirsInterval > 0 {
		l.dirs = NewDirsWatch(opts.GlobalHooksDir)
	}
	return l
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
	case messages.ReconcileModule:
		l.step(ctx, ReconcileAsked{Msg: msg})
		ctx.Respond(messages.ReconcileAccepted{Module: msg.Module}) // taken: the Module object's status may say so
	case ModulesScanned, ReleasesListed, ReleaseDeleted:
		l.step(ctx, msg.(Event)) // the ioActor's
	case KnownDirs, WatchDirs, DirsDue, DirsListed:
		l.stepDirs(ctx, msg.(DirsEvent)) // the lifecycle's own, the clock's and the ioActor's
	}
}

func (l *lifecycle) handleStarted(ctx actor.Context) {
	l.io = ctx.Spawn(actor.PropsFromProducer(newIOActor(l.opts.Releases, l.opts.Scan, l.opts.ListDirs, l.opts.GlobalHooksDir)))
	l.step(ctx, ChildrenSpawned{Owners: l.spawnedOwners()})
}

// spawnedOwners are the module owners whose actor runs.
func (l *lifecycle) spawnedOwners() []string {
	var out []string
	for _, d := range l.opts.Modules {
		if owner := messages.ModuleOwner(d.Names.Name); l.children.PID(owner) != nil {
			out = append(out, owner)
		}
	}
	return out
}
