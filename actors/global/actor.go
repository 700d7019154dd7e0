package global

import (
	"context"
	"log/slog"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/supervision"
	"github.com/addon-actors/addon-operator/values"
)

// Options configures the global actor.
type Options struct {
	// HooksDir is $GLOBAL_HOOKS_DIR; empty means no global hooks.
	HooksDir string
	// Common is the parsed $MODULES_DIR/values.yaml.
	Common  values.Sections
	Schemas values.Schemas
	Runner  worker.Runner
	Board   *board.Board
	Metrics hookrun.Metrics
	// Clock paces hooks with executionMinInterval; nil: no pacing.
	Clock supervision.Clock
	// WorkerMailbox, when set, is the worker child's mailbox.
	WorkerMailbox actor.MailboxProducer
	// Watch follows the hook runs in progress; nil: not followed.
	Watch *worker.RunWatch
	Log   *slog.Logger
	// Siblings are the actors it reports to; unset ones are resolved
	// under its parent (the operator root).
	Siblings hookrun.Siblings
	// Work is the context hooks and helm run under; the process cancels it
	// when the shutdown grace period is over. Nil is context.Background().
	Work context.Context
}

// Actor is the global actor. Global hooks run one task per queue at a
// time, queues concurrently (each queue's runs have their own step and
// worker); their results apply to the one global scope, in the order they
// arrive.
type Actor struct {
	opts    Options
	hooks   hookrun.HookSet
	scope   values.Scope
	runs    map[string]*run // by queue
	peers   hookrun.Siblings
	workCtx context.Context
	cancel  context.CancelFunc
	// stopping is set once the actor is being stopped: a worker spawned
	// then would never be stopped, and the actor would never end.
	stopping bool
	// sync is the running TaskGlobalSync, while it waits.
	sync *syncing
}

// run is a queue's hook run: the task the queue has given the global
// actor, the run's core and its own worker.
type run struct {
	queue  string
	core   hookrun.Run
	worker *actor.PID
	task   *hookrun.Assigned
	// changed: the task's hook changed the values.
	changed bool
}

// New returns the producer of the global actor.
func New(opts Options) actor.Producer {
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	return func() actor.Actor { return &Actor{opts: opts} }
}

// Receive implements actor.Actor.
func (a *Actor) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		a.handleStarted(ctx)
	case worker.ConfigureResult:
		a.handleConfigured(ctx, msg)
	case messages.ApplyConfig:
		a.handleApplyConfig(ctx, msg)
	case messages.RunTask:
		a.handleRunTask(ctx, msg)
	case messages.KubeSyncRuns:
		a.handleKubeSyncRuns(ctx, msg)
	case worker.HookResult:
		a.handleHookResult(ctx, msg)
	case messages.HookSnapshots:
		a.handleSnapshots(ctx, msg)
	case messages.ConfigPatchDone:
		a.handleConfigPatchDone(ctx, msg)
	case tokenArrived:
		a.handleTokenArrived(ctx, msg)
	case messages.HookEvent:
		ctx.Send(a.peers.Queue, messages.Enqueue{Tasks: []messages.Task{hookrun.TaskOf(msg)}})
	case *actor.Stopping:
		a.stopping = true
	case *actor.Stopped:
		// Only now: the worker child has stopped, after finishing its job.
		if a.cancel != nil {
			a.cancel()
		}
	}
}

// handleStarted builds the scope from the durable inputs (values files; the
// ConfigMap section arrives with ApplyConfig) and configures the hooks.
func (a *Actor) handleStarted(ctx actor.Context) {
	workCtx, cancel := context.WithCancel(worker.OrBackground(a.opts.Work))
	a.cancel = cancel
	// A validation error here is not final: required keys may come with the
	// ConfigMap section, which ApplyConfig validates.
	a.scope, _ = values.NewGlobalScope(a.opts.Schemas, a.opts.Common)
	a.publish()
	a.workCtx = workCtx
	a.peers = a.opts.Siblings.Resolve(ctx.Parent())
	a.runs = map[string]*run{}
	main := a.runFor(ctx, messages.MainQueue)
	ctx.Request(main.worker, worker.ConfigureJob{Root: a.opts.HooksDir, Scope: scopeGlobal})
}

func (a *Actor) handleConfigured(ctx actor.Context, msg worker.ConfigureResult) {
	ready := messages.OwnerReady{Owner: messages.OwnerGlobal}
	if msg.Err != nil {
		ready.Err = msg.Err.Error()
		a.opts.Log.Error("global hooks", "err", msg.Err)
	}
	// Their bindings start with TaskGlobalSync, after onStartup: no
	// schedule fires and no event runs a hook before it.
	a.hooks = msg.Hooks
	a.opts.Log.Info("global hooks configured", "count", len(a.hooks))
	ctx.Send(a.peers.Report, ready)
}

func (a *Actor) handleApplyConfig(ctx actor.Context, msg messages.ApplyConfig) {
	reply := messages.ConfigApplied{Owner: messages.OwnerGlobal}
	next, err := a.scope.WithConfig(msg.Section)
	if err != nil {
		reply.Err = err.Error()
		a.opts.Log.Error("global config rejected; the previous one stays", "err", err)
	} else {
		reply.Changed = next.Checksum() != a.scope.Checksum()
		a.scope = next
		a.publish()
	}
	ctx.Respond(reply)
}

func (a *Actor) publish() {
	a.opts.Board.SetGlobal(a.scope.Snapshot(), a.scope.DynamicEnabled())
	a.opts.Board.SetPatches(messages.OwnerGlobal, hookrun.PatchesJSON(a.scope))
}

// runFor returns the run of a queue, with its own worker.
func (a *Actor) runFor(ctx actor.Context, queue string) *run {
	if r, ok := a.runs[queue]; ok {
		return r
	}
	r := &run{queue: queue, core: hookrun.Run{WithKube: a.peers.Kube != nil, Paced: a.opts.Clock != nil},
		worker: ctx.SpawnPrefix(worker.Props(worker.New(a.workCtx, a.opts.Runner, nil, a.opts.Watch), a.opts.WorkerMailbox), "worker")}
	a.runs[queue] = r
	return r
}

// now reads the injected clock (none in some tests: no pacing then).
func (a *Actor) now() time.Time {
	if a.opts.Clock == nil {
		return time.Time{}
	}
	return a.opts.Clock.Now()
}
