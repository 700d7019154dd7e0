package operator

import (
	"fmt"
	"maps"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/actors/step"
	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/supervision"
)

// step feeds the core one event and carries out its effects, in order.
// An effect done here whose outcome the core waits for (SpawnModules)
// leaves an event in outcomes, stepped by this loop once the effects
// before it are carried out: the core is never stepped from inside its
// own effects.
func (l *lifecycle) step(ctx actor.Context, ev Event) {
	for pending := []Event{ev}; len(pending) > 0; {
		ev, pending = pending[0], pending[1:]
		for _, e := range l.core.Step(ev, l.env()) {
			l.apply(ctx, e)
		}
		pending, l.outcomes = append(pending, l.outcomes...), nil
	}
}

// env is what the core reads for a Step: the clock's time and the global
// hooks' enabled flags as published.
func (l *lifecycle) env() Env {
	env := Env{}
	if l.opts.Clock != nil {
		env.Now = l.opts.Clock.Now()
	}
	if l.read != nil {
		env.Dynamic = l.read.DynamicEnabled()
	}
	return env
}

// apply carries out one effect of the core; TestApplyCoversEveryEffect
// proves it has a case for each.
func (l *lifecycle) apply(ctx actor.Context, e Effect) {
	switch e := e.(type) {
	case Log:
		step.Log(e).Write(l.opts.Log)
	case Fatal:
		if l.opts.Fatal != nil {
			l.opts.Fatal(e.Err)
		}
	case TellReaders:
		l.tellReaders(ctx, e.Modules)
		l.tellDirs(ctx, KnownDirs{Dirs: moduleDirs(e.Modules)})
	case ApplyGlobalConfig:
		ctx.Request(l.children.PID(ChildGlobal), messages.ApplyConfig{Section: e.Section})
	case Enqueue:
		ctx.Send(l.children.PID(ChildQueue), messages.Enqueue{Tasks: e.Tasks})
	case FinishTask:
		ctx.Send(e.To, e.Done)
	case CheckEnabled:
		ctx.Request(l.children.PID(ModuleChild(e.Module)), messages.CheckEnabled{EnabledBefore: e.EnabledBefore})
	case ScanModules, ListReleases, DeleteRelease:
		ctx.Request(l.io, e) // the ioActor answers with the event that follows
	case ModuleOut:
		l.moduleOut(ctx, e)
	case SpawnModules:
		l.outcomes = append(l.outcomes, ModulesSpawned{Defs: e.Defs, Failed: l.spawnModules(ctx, e.Defs)})
	case HoldEvents:
		if pid := l.children.PID(ChildQueue); pid != nil {
			ctx.Send(pid, messages.HoldEvents{Hold: e.Hold})
		}
	case Count, Discovered, PublishEnabled, PublishUnseen, PublishConverge, MarkReady, Converged:
		l.publish(ctx, e)
	default:
		panic(fmt.Sprintf("operator: effect %T has no case in apply", e))
	}
}

// publish carries out the effects that count or publish.
func (l *lifecycle) publish(ctx actor.Context, e Effect) {
	switch e := e.(type) {
	case MarkReady:
		l.opts.Board.SetReady()
		l.tellDirs(ctx, WatchDirs{})
	case Count:
		l.count(e)
	case Discovered:
		l.tellDiscovered(e)
		l.opts.Board.SetEnabledDecisions(e.Decisions)
	case PublishEnabled:
		l.opts.Board.SetEnabledModules(e.Enabled)
	case PublishUnseen:
		l.publishUnseen(e.Unseen)
	case PublishConverge:
		if l.opts.Board != nil {
			l.opts.Board.SetConverge(e.State)
		}
	case Converged:
		if l.opts.Converged != nil {
			l.opts.Converged(e.Took, e.Activation)
		}
	default:
		panic(fmt.Sprintf("operator: effect %T has no case in publish", e))
	}
}

// count counts e's metric.
func (l *lifecycle) count(e Count) {
	switch e.Metric {
	case MetricDiscoverErrors:
		inc(l.opts.DiscoverErrors)
	case MetricConfigErrors:
		inc(l.opts.ConfigErrors)
	case MetricPurges:
		if l.opts.Destructive != nil {
			l.opts.Destructive(e.Release, worker.Destructive{Action: worker.ActionPurge, Reason: e.Cause})
		}
	default:
		panic(fmt.Sprintf("operator: metric %d has no case in count", e.Metric))
	}
}

func inc(c Counter) {
	if c != nil {
		c.Inc()
	}
}

// tellReaders tells the config actor which module actors read which
// section; the first section each gets is answered to the operator.
func (l *lifecycle) tellReaders(ctx actor.Context, modules []layout.Definition) {
	readers := map[string]messages.SectionReader{}
	for _, d := range modules {
		owner := messages.ModuleOwner(d.Names.Name)
		if pid := l.children.PID(owner); pid != nil {
			readers[d.Names.ValuesKey] = messages.SectionReader{Owner: owner, PID: pid}
		}
	}
	if pid := l.children.PID(ChildConfig); pid != nil {
		ctx.Send(pid, messages.SectionReaders{Modules: readers, FirstReport: ctx.Self(), Global: l.children.PID(ChildGlobal)})
	}
}

// moduleOut carries out ModuleOut: a disabled module's actor is told; the
// actor of a module whose dir is gone is told and stopped (its release, if
// any, is purged by this discovery, without afterDeleteHelm); a module
// whose actor stopped is shown failed.
func (l *lifecycle) moduleOut(ctx actor.Context, e ModuleOut) {
	child := ModuleChild(e.Name)
	switch e.How {
	case OutDisabled:
		ctx.Send(l.children.PID(child), messages.ModuleDisabled{})
	case OutRemoved:
		if pid := l.children.PID(child); pid != nil {
			ctx.Send(pid, messages.ModuleRemoved{})
		}
		l.children.Remove(ctx, child)
	case OutStopped:
		l.publishFailed(e.Name, e.Why)
	default:
		panic(fmt.Sprintf("operator: module out %d has no case in moduleOut", e.How))
	}
}

// spawnModules starts the actors of modules whose dir appeared (placed
// before the queue) and returns those that could not start, with why.
func (l *lifecycle) spawnModules(ctx actor.Context, defs []layout.Definition) map[string]error {
	failed := map[string]error{}
	for _, d := range defs {
		child := Child{Name: ModuleChild(d.Names.Name), Props: l.opts.ModuleProps(d)}
		if _, err := l.children.Spawn(ctx, child, ChildQueue); err != nil {
			failed[d.Names.Name] = err
		}
	}
	return failed
}

// tellDiscovered hands a discovery's outcome to LifecycleOptions.Unmet
// and Discovered.
func (l *lifecycle) tellDiscovered(e Discovered) {
	if l.opts.Unmet != nil {
		l.opts.Unmet(maps.Clone(e.Unmet))
	}
	if l.opts.Discovered != nil {
		l.opts.Discovered(e.All, e.Enabled)
	}
}

// publishUnseen hands the modules whose dir cannot be seen to the board
// and the metric.
func (l *lifecycle) publishUnseen(unseen map[string]string) {
	if l.opts.Board != nil {
		l.opts.Board.SetDirErrors(maps.Clone(unseen))
	}
	if l.opts.DirErrors != nil {
		l.opts.DirErrors(maps.Clone(unseen))
	}
}

// publishFailed shows a module failed in the board's module list, its last
// published state kept otherwise.
func (l *lifecycle) publishFailed(module, why string) {
	if l.read == nil {
		return
	}
	s, ok := l.read.Module(module)
	if !ok {
		s = board.ModuleState{Name: module}
	}
	s.Phase, s.LastError = board.PhaseFailed, why
	l.opts.Board.SetModule(s)
}

// tellDirs hands the modules dirs' watcher ev, through the mailbox: the
// watcher is stepped as any message is, never from inside the Core's
// effects.
func (l *lifecycle) tellDirs(ctx actor.Context, ev DirsEvent) {
	if l.dirs != nil {
		ctx.Send(ctx.Self(), ev)
	}
}

// stepDirs feeds the modules dirs' watcher one event and carries out its
// effects, in order.
func (l *lifecycle) stepDirs(ctx actor.Context, ev DirsEvent) {
	if l.dirs == nil {
		return
	}
	for _, e := range l.dirs.Step(ev) {
		l.applyDirs(ctx, e)
	}
}

// applyDirs carries out one effect of the modules dirs' watcher;
// TestApplyCoversEveryEffect proves it has a case for each.
func (l *lifecycle) applyDirs(ctx actor.Context, e DirsEffect) {
	switch e := e.(type) {
	case Log:
		step.Log(e).Write(l.opts.Log)
	case Enqueue:
		ctx.Send(l.children.PID(ChildQueue), messages.Enqueue{Tasks: e.Tasks})
	case ListDirs:
		ctx.Request(l.io, e) // the ioActor answers DirsListed
	case ArmDirsCheck:
		supervision.Deliver(l.opts.Clock, ctx.ActorSystem().Root, ctx.Self(), DirsDue{}, l.opts.DirsInterval)
	default:
		panic(fmt.Sprintf("operator: effect %T has no case in applyDirs", e))
	}
}
