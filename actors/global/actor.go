package global

import (
	"context"
	"log/slog"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/hookrun/owner"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/supervision"
	"github.com/addon-actors/addon-operator/values"
	"github.com/addon-actors/addon-operator/values/mask"
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
	// Webhooks serves and registers the global hooks' webhook bindings,
	// from start-up on; nil: they are not served.
	Webhooks worker.Webhooks
}

// Actor is the global actor: a shell around Core, which decides; it
// carries out the effects, with one worker per queue.
type Actor struct {
	opts Options
	core *Core
	// shell carries out the effects of the core's owner.Owner.
	shell   owner.Shell
	workers map[string]*actor.PID // by queue
	peers   hookrun.Siblings
	workCtx context.Context
	cancel  context.CancelFunc
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
		a.step(ctx, Configured{Hooks: msg.Hooks, Err: msg.Err})
	case messages.ApplyConfig:
		a.stepOwner(ctx, owner.SectionChanged{Section: msg.Section})
	case messages.CheckConfig:
		a.stepOwner(ctx, owner.CheckAsked{Check: msg})
	case messages.RunTask:
		a.step(ctx, TaskAssigned{Assigned: hookrun.Assigned{Task: msg.Task, Queue: ctx.Sender()}})
	case messages.KubeSyncRuns:
		a.step(ctx, KubeSynced{Runs: msg})
	case worker.WebhookResult:
		a.step(ctx, WebhooksRegistered{Err: msg.Err})
	case worker.HookResult:
		a.stepRun(ctx, msg.Queue, hookrun.HookDone{Result: msg.Result, Err: msg.Err})
	case messages.HookSnapshots:
		a.stepRun(ctx, msg.Tag, hookrun.SnapshotsRead{Snapshots: msg.Snapshots})
	case messages.ConfigPatchDone:
		a.stepRun(ctx, msg.Tag, hookrun.ConfigWritten{Err: msg.Err})
	case owner.TokenDue:
		a.stepRun(ctx, msg.Queue, hookrun.TokenArrived{})
	case messages.HookEvent:
		a.stepOwner(ctx, owner.HookEventArrived{Event: msg})
	case *actor.Stopping:
		// A worker spawned from now on would never be stopped, and the
		// actor would never end: new tasks fail.
		a.step(ctx, Stopping{})
	case *actor.Stopped:
		// Only now: the worker child has stopped, after finishing its job.
		if a.cancel != nil {
			a.cancel()
		}
	}
}

// handleStarted builds the core from the durable inputs (values files;
// the ConfigMap section arrives with ApplyConfig); its first step
// publishes the scope and configures the hooks.
func (a *Actor) handleStarted(ctx actor.Context) {
	workCtx, cancel := context.WithCancel(worker.OrBackground(a.opts.Work))
	a.cancel = cancel
	a.workCtx = workCtx
	a.peers = a.opts.Siblings.Resolve(ctx.Parent())
	a.workers = map[string]*actor.PID{}
	// A validation error here is not final: required keys may come with the
	// ConfigMap section, which ApplyConfig validates.
	scope, _ := values.NewGlobalScope(a.opts.Schemas, a.opts.Common)
	// The password paths come with the schemas: published once.
	if s, ok := a.opts.Schemas.(passworded); ok {
		a.opts.Board.SetPasswords(messages.OwnerGlobal, s.Passwords())
	}
	a.shell = owner.Shell{Name: messages.OwnerGlobal, Peers: a.peers, Clock: a.opts.Clock, Log: a.opts.Log,
		Board: a.opts.Board, Metrics: a.opts.Metrics, Worker: a.workerFor, Publish: a.publish}
	a.core = NewCore(CoreOptions{Scope: scope, WithKube: a.peers.Kube != nil, Paced: a.opts.Clock != nil,
		ServeWebhooks: a.opts.Webhooks != nil})
	a.step(ctx, Started{})
}

// passworded is what the global schemas (a *schema.Set) say of the
// settings marked `format: password`, which the board's readers mask.
type passworded interface{ Passwords() mask.Paths }

// now reads the injected clock (none in some tests: no pacing then).
func (a *Actor) now() time.Time {
	if a.opts.Clock == nil {
		return time.Time{}
	}
	return a.opts.Clock.Now()
}
