package worker

import (
	"context"
	"fmt"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/hookexec"
	"github.com/addon-actors/addon-operator/hookrun"
)

// Worker runs an owner's blocking jobs one at a time and answers each to
// its sender. Jobs run under ctx, which the owner cancels when it stops: a
// busy worker does not see its own Stopping until the job returns.
type Worker struct {
	runner   Runner
	releaser Releaser
	ctx      context.Context
	watch    *RunWatch
}

// New returns the producer of a worker. Its hook runs are followed
// by watch (nil: not followed).
func New(ctx context.Context, runner Runner, releaser Releaser, watch *RunWatch) actor.Producer {
	return func() actor.Actor {
		return &Worker{runner: runner, releaser: releaser, ctx: ctx, watch: watch}
	}
}

// Receive implements actor.Actor.
func (w *Worker) Receive(ctx actor.Context) {
	switch job := ctx.Message().(type) {
	case ConfigureJob:
		ctx.Respond(w.configure(job))
	case HookJob:
		ctx.Respond(w.hook(job))
	case EnabledJob:
		ctx.Respond(w.enabled(job))
	case HelmJob:
		ctx.Respond(w.helm(ctx, job))
	case RemediateJob:
		done, err := w.releaser.Remediate(w.ctx, job)
		ctx.Respond(RemediateResult{Remedied: done, Err: err})
	case DeleteJob:
		removal, err := w.releaser.Uninstall(w.ctx, job.Module)
		ctx.Respond(DeleteResult{Removal: removal, Err: err})
	case ReleaseJob:
		exists, err := w.releaser.Exists(w.ctx, job.Module)
		ctx.Respond(ReleaseResult{Exists: exists, Err: err})
	case CRDJob:
		ctx.Respond(w.applyCRDs(job))
	case WebhookJob:
		ctx.Respond(w.webhooks(job))
	case CheckJob:
		check, err := w.releaser.Check(w.ctx, job)
		ctx.Respond(CheckResult{Check: check, Err: err})
	case RestoreJob:
		restored, err := w.releaser.Restore(w.ctx, job.Module, job.Drift)
		ctx.Respond(RestoreResult{Drift: job.Drift, Restored: restored, Err: err})
	}
}

// helm runs the upgrade; its wait's progress goes to the job's sender as
// HelmWaiting, ahead of the HelmResult (both are sent from this
// goroutine, in order).
func (w *Worker) helm(ctx actor.Context, job HelmJob) HelmResult {
	if job.Wait {
		root, to := ctx.ActorSystem().Root, ctx.Sender()
		job.Progress = func(notReady []string) { root.Send(to, HelmWaiting{NotReady: notReady}) }
	}
	out, err := w.releaser.Upgrade(w.ctx, job)
	return HelmResult{Outcome: out, Err: err}
}

func (w *Worker) hook(job HookJob) HookResult {
	end := w.watch.Begin(RunLabels{Module: job.Module, Hook: job.Request.Hook.Name, Binding: job.Binding, Queue: job.Queue})
	defer end()
	res, err := w.runner.Run(w.ctx, job.Request)
	return HookResult{Hook: job.Request.Hook.Name, Binding: job.Binding, Queue: job.Queue, Result: res, Err: err}
}

func (w *Worker) configure(job ConfigureJob) ConfigureResult {
	if job.Root == "" {
		return ConfigureResult{}
	}
	if job.Slots != nil {
		select {
		case job.Slots <- struct{}{}:
			defer func() { <-job.Slots }()
		case <-w.ctx.Done():
			return ConfigureResult{Err: w.ctx.Err()}
		}
	}
	hooks, err := w.runner.DiscoverHooks(w.ctx, job.Root, hookexec.Owner{Scope: job.Scope, Module: job.Module})
	if err != nil {
		return ConfigureResult{Err: fmt.Errorf("find hooks in %s: %w", job.Root, err)}
	}
	set := make(hookrun.HookSet, 0, len(hooks))
	for _, h := range hooks {
		cfg, err := w.runner.Config(w.ctx, h, job.Scope)
		if err != nil {
			return ConfigureResult{Err: fmt.Errorf("configure hook %s: %w", h.Name, err)}
		}
		set = append(set, hookrun.Hook{Hook: h, Config: cfg})
	}
	docs, err := readCRDs(job.CRDFiles)
	if err != nil {
		return ConfigureResult{Err: err}
	}
	return ConfigureResult{Hooks: set, CRDs: docs}
}

func (w *Worker) enabled(job EnabledJob) EnabledResult {
	script, ok, err := hookexec.EnabledScript(job.Dir)
	if err != nil {
		return EnabledResult{Err: err}
	}
	if !ok {
		return EnabledResult{Enabled: true}
	}
	job.Request.Script = script
	res, err := w.runner.RunEnabled(w.ctx, job.Request)
	if err != nil {
		return EnabledResult{Err: fmt.Errorf("enabled script of %s: %w", job.Dir, err)}
	}
	return EnabledResult{Enabled: res.Enabled != nil && *res.Enabled}
}

// OrBackground returns ctx, or context.Background() when ctx is nil.
func OrBackground(ctx context.Context) context.Context {
	if ctx == nil {
		return context.Background()
	}
	return ctx
}

// Props are the props of an owner's worker; with mailbox set (the
// inspector's) the worker, and the job it is running, show in the inspector.
func Props(producer actor.Producer, mailbox actor.MailboxProducer) *actor.Props {
	if mailbox == nil {
		return actor.PropsFromProducer(producer)
	}
	return actor.PropsFromProducer(producer, actor.WithMailbox(mailbox))
}
