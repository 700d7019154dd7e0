package operator

import (
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	ownerworker "github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/messages"
)

// handleRunTask runs the operator's own tasks. The queue runs one task per
// queue, and all operator tasks go through main, so one runs at a time.
func (b *lifecycle) handleRunTask(ctx actor.Context, msg messages.RunTask) {
	b.current = hookrun.Assigned{Task: msg.Task, Queue: ctx.Sender()}
	t := msg.Task
	switch t.Kind {
	case messages.TaskReloadAll:
		b.markConvergeStart()
		b.done(ctx, messages.TaskDone{Next: []messages.Task{
			{Kind: messages.TaskGlobalBinding, Owner: messages.OwnerGlobal, Binding: "beforeAll", Reason: t.Reason},
			{Kind: messages.TaskDiscover, Owner: messages.OwnerOperator, Reason: t.Reason},
		}})
	case messages.TaskDiscover:
		b.markConvergeStart()
		b.startDiscovery(ctx)
	case messages.TaskParallelModuleRun:
		b.startGroup(ctx, t)
	case messages.TaskModulePurge:
		ctx.Request(b.releases, deleteRelease{Name: t.Module})
	case messages.TaskConvergeDone:
		if !b.opts.Board.Ready() {
			b.armDirsCheck(ctx)
		}
		b.converged()
		b.done(ctx, messages.TaskDone{})
	default:
		b.done(ctx, messages.TaskDone{Err: fmt.Sprintf("operator cannot run %s tasks", t.Kind)})
	}
}

func (b *lifecycle) done(ctx actor.Context, d messages.TaskDone) {
	d.ID, d.Queue = b.current.Task.ID, b.current.Task.Queue
	ctx.Send(b.current.Queue, d)
}

func (b *lifecycle) markConvergeStart() {
	if b.convergeStart.IsZero() {
		b.convergeStart = b.opts.Clock.Now()
	}
}

func (b *lifecycle) converged() {
	took := b.opts.Clock.Now().Sub(b.convergeStart)
	b.convergeStart = time.Time{}
	if !b.opts.Board.Ready() {
		// Ready first: whoever reads the log line finds /readyz 200.
		b.opts.Board.SetReady()
		b.opts.Log.Info("first converge done; ready", "took", took)
	} else {
		b.opts.Log.Info("converge done", "took", took)
	}
	if b.opts.Converged != nil {
		b.opts.Converged(took)
	}
}

// PurgedMessage is the message of the WARN record of a purge.
const PurgedMessage = "purged release without a module dir"

func (b *lifecycle) handleReleaseDeleted(ctx actor.Context, msg releaseDeleted) {
	if msg.Err != nil {
		b.done(ctx, messages.TaskDone{Err: fmt.Sprintf("purge release %s: %v", msg.Name, msg.Err)})
		return
	}
	t := b.current.Task
	// Counted before the log: a reader of the log finds the metric updated.
	if b.opts.Destructive != nil {
		b.opts.Destructive(msg.Name, ownerworker.Destructive{Action: ownerworker.ActionPurge, Reason: t.Cause})
	}
	b.opts.Log.Warn(PurgedMessage, "release", msg.Name, "reason", t.Reason)
	b.done(ctx, messages.TaskDone{})
}
