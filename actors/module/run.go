package module

import (
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/actors/owner"
	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/hookexec"
	"github.com/addon-actors/addon-operator/hookexec/bindings"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/values"
)

const scopeModule = bindings.ScopeModule

type phaseKind int

const (
	phaseHook phaseKind = iota
	phaseHelm
	phaseDelete
	phaseDisabled
	// phaseKubeSync starts the bindings and waits for their
	// Synchronization runs, which become hook phases.
	phaseKubeSync
)

// phase is one step of a task.
type phase struct {
	kind    phaseKind
	hook    hookrun.Hook
	binding string
	context []byte
	// reacts: a values change by this hook queues another module run.
	reacts bool
}

// run is the task being run: its phases and where it is.
type run struct {
	task          messages.Task
	phases        []phase
	at            int
	valuesChanged bool
	started       time.Time
	helmStarted   time.Time
}

func (a *Actor) handleRunTask(ctx actor.Context, msg messages.RunTask, queue *actor.PID) {
	if a.tasks.Offer(owner.Assigned{Task: msg.Task, Queue: queue}) {
		a.start(ctx, msg.Task)
	}
}

func (a *Actor) start(ctx actor.Context, t messages.Task) {
	phases, err := a.plan(t)
	if err != nil {
		a.done(ctx, messages.TaskDone{Err: err.Error()})
		return
	}
	a.run = &run{task: t, phases: phases, started: a.now()}
	a.state.Phase = string(t.Kind)
	a.publish()
	a.next(ctx)
}

// plan decides the phases of a task. A module run starts with onStartup
// until a run has completed since the module was enabled: a run that fails
// in afterHelm runs onStartup again on its retry (spec/LIFECYCLE.md).
func (a *Actor) plan(t messages.Task) ([]phase, error) {
	switch t.Kind {
	case messages.TaskModuleRun:
		var p []phase
		if !a.state.StartupDone {
			p = a.orderPhases(bindings.OnStartup, false)
		}
		if !a.watching {
			p = append(p, phase{kind: phaseKubeSync})
		}
		p = append(p, a.orderPhases(bindings.BeforeHelm, false)...)
		p = append(p, phase{kind: phaseHelm})
		return append(p, a.orderPhases(bindings.AfterHelm, true)...), nil
	case messages.TaskModuleDelete:
		p := append([]phase{{kind: phaseDelete}}, a.orderPhases(bindings.AfterDeleteHelm, false)...)
		return append(p, phase{kind: phaseDisabled}), nil
	case messages.TaskModuleHook:
		h, ok := a.hooks.Find(t.Hook)
		if !ok {
			return nil, fmt.Errorf("module %s has no hook %q", a.opts.Definition.Names.Name, t.Hook)
		}
		return []phase{{kind: phaseHook, hook: h, binding: t.Binding, context: t.Context, reacts: !t.Sync}}, nil
	}
	return nil, fmt.Errorf("module actor cannot run %s tasks", t.Kind)
}

func (a *Actor) orderPhases(t bindings.Type, reacts bool) []phase {
	var out []phase
	for _, h := range a.hooks.Ordered(t) {
		out = append(out, phase{kind: phaseHook, hook: h, binding: string(t), reacts: reacts})
	}
	return out
}

// next starts the next phase that needs the worker, or finishes the task.
func (a *Actor) next(ctx actor.Context) {
	for r := a.run; r.at < len(r.phases); r.at++ {
		p := r.phases[r.at]
		switch p.kind {
		case phaseHook:
			a.startHook(ctx, p)
			return
		case phaseHelm:
			if a.startHelm(ctx) {
				return
			}
		case phaseDelete:
			ctx.Request(a.step.Worker, worker.DeleteJob{Module: a.opts.Definition.Names.Name})
			return
		case phaseDisabled:
			a.handleDisabled(ctx)
		case phaseKubeSync:
			if a.peers.Kube != nil && a.hooks.HasKubernetes() {
				a.watch(ctx, true, ctx.Self())
				return // KubeSyncRuns continues
			}
			a.watch(ctx, true, nil)
		}
	}
	a.finish(ctx, nil)
}

func (a *Actor) startHook(ctx actor.Context, p phase) {
	in := values.ModuleHookInput(a.opts.Board.Global(), a.scope.Snapshot(), a.opts.Board.EnabledModules())
	scope := hookexec.PatchScope{RootKey: a.opts.Definition.Names.ValuesKey}
	t := a.run.task
	log := a.log.With("binding", p.binding, "queue", queueName(t.Queue), "task", t.ID, "attempt", t.Attempts+1)
	req, err := owner.Request(p.hook, p.context, in, scope, log)
	if err != nil {
		a.finish(ctx, err)
		return
	}
	a.step.Start(ctx, p.hook, req, owner.RunInfoOf(p.binding, a.run.task.Queue, a.run.task.AllowFailure))
}

// startHelm sends the upgrade to the worker; false when there is no chart.
func (a *Actor) startHelm(ctx actor.Context) bool {
	if !a.opts.Definition.HasChart {
		return false
	}
	if err := a.scope.ValidateForHelm(); err != nil {
		a.finish(ctx, fmt.Errorf("values for helm: %w", err))
		return true
	}
	a.run.helmStarted = a.now()
	ctx.Request(a.step.Worker, worker.HelmJob{Module: a.opts.Definition.Names.Name, ChartDir: a.opts.Definition.Dir,
		Values: values.HelmValues(a.opts.Board.Global(), a.scope.Snapshot())})
	return true
}

func (a *Actor) stepDone(ctx actor.Context, res owner.StepResult) {
	if a.run == nil {
		return
	}
	if res.Err != nil {
		a.finish(ctx, res.Err)
		return
	}
	a.scope = res.Applied.Scope
	if res.Applied.ValuesChanged && a.run.phases[a.run.at].reacts {
		a.run.valuesChanged = true
	}
	a.run.at++
	a.next(ctx)
}

func (a *Actor) handleHelmResult(ctx actor.Context, r worker.HelmResult) {
	if a.opts.Metrics != nil && a.run != nil {
		a.opts.Metrics.Helm(a.opts.Definition.Names.Name, a.now().Sub(a.run.helmStarted), r.Err)
	}
	a.countDestructive(r.Outcome.Destructive) // a clear may be done when the upgrade after it fails
	if r.Err != nil {
		a.finish(ctx, fmt.Errorf("helm upgrade: %w", r.Err))
		return
	}
	if r.Outcome.Revision > 0 {
		a.state.Revision = r.Outcome.Revision
	}
	a.log.Info("helm", "upgraded", r.Outcome.Upgraded, "revision", r.Outcome.Revision, "reason", r.Outcome.Reason)
	a.run.at++
	a.next(ctx)
}

func (a *Actor) handleDeleteResult(ctx actor.Context, r worker.DeleteResult) {
	a.countDestructive(r.Removal.Destructive)
	if r.Err != nil {
		a.finish(ctx, fmt.Errorf("helm uninstall: %w", r.Err))
		return
	}
	if r.Removal.Revision > 0 && a.run != nil {
		t := a.run.task
		// Counted before the log: a reader of the log finds the metric updated.
		a.countDestructive([]worker.Destructive{{Action: worker.ActionUninstall, Reason: t.Cause}})
		a.log.Warn(UninstalledMessage, "release", a.opts.Definition.Names.Name, "revision", r.Removal.Revision,
			"status", r.Removal.Status, "reason", t.Reason)
	}
	a.state.Revision = 0
	a.run.at++
	a.next(ctx)
}

// UninstalledMessage is the message of the WARN record of the uninstall of
// a disabled module's release.
const UninstalledMessage = "uninstalled release of disabled module"

// countDestructive counts destructive actions on the module's release
// (logged at WARN where they happened).
func (a *Actor) countDestructive(done []worker.Destructive) {
	if a.opts.Metrics == nil {
		return
	}
	for _, d := range done {
		a.opts.Metrics.Destructive(a.opts.Definition.Names.Name, d)
	}
}

// finish reports the task; a values change by afterHelm or an event hook
// queues another module run.
func (a *Actor) finish(ctx actor.Context, err error) {
	done := messages.TaskDone{}
	a.state.Phase, a.state.LastError = "idle", ""
	if a.run != nil {
		a.state.LastRun = string(a.run.task.Kind)
		if a.run.task.Kind == messages.TaskModuleRun && a.opts.Metrics != nil {
			a.opts.Metrics.ModuleRun(a.opts.Definition.Names.Name, a.now().Sub(a.run.started), err)
		}
		if a.run.task.Kind == messages.TaskModuleRun && err == nil {
			a.state.Enabled, a.state.StartupDone = true, true
			a.scheduleCheck(ctx)
		}
		if err == nil && a.run.valuesChanged {
			done.Later = []messages.Task{messages.NewModuleRun(a.opts.Definition.Names.Name, "values changed by a hook")}
		}
	}
	if err != nil {
		done.Err = err.Error()
		a.state.LastError = done.Err
		a.log.Error("task failed", "err", err)
	}
	a.run = nil
	a.state.Tasks++
	a.publish()
	a.done(ctx, done)
}

func (a *Actor) done(ctx actor.Context, d messages.TaskDone) {
	if next, ok := a.tasks.Finish(ctx, d); ok {
		a.start(ctx, next.Task)
	}
}

// now reads the injected clock (none in some tests: durations are then 0).
func (a *Actor) now() time.Time {
	if a.opts.Clock == nil {
		return time.Time{}
	}
	return a.opts.Clock.Now()
}

// handleKubeSyncRuns inserts the Synchronization runs as the next phases.
func (a *Actor) handleKubeSyncRuns(ctx actor.Context, msg messages.KubeSyncRuns) {
	r := a.run
	if r == nil || r.at >= len(r.phases) || r.phases[r.at].kind != phaseKubeSync {
		return
	}
	if msg.Err != "" {
		a.watch(ctx, false, nil) // watch again on the retry
		a.finish(ctx, fmt.Errorf("kubernetes bindings: %s", msg.Err))
		return
	}
	var sync []phase
	for _, run := range msg.Runs {
		if h, ok := a.hooks.Find(run.Hook); ok {
			sync = append(sync, phase{kind: phaseHook, hook: h, binding: run.Binding, context: run.Context})
		}
	}
	r.phases = append(r.phases[:r.at+1], append(sync, r.phases[r.at+1:]...)...)
	r.at++
	a.next(ctx)
}

func queueName(q string) string {
	if q == "" {
		return messages.MainQueue
	}
	return q
}
