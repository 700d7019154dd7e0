package operator

import (
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/messages"
)

// handleRunTask runs the operator's own tasks. The queue runs one task per
// queue, and all operator tasks go through main, so one runs at a time.
func (l *lifecycle) handleRunTask(ctx actor.Context, msg messages.RunTask) {
	l.current = hookrun.Assigned{Task: msg.Task, Queue: ctx.Sender()}
	t := msg.Task
	switch t.Kind {
	case messages.TaskReloadAll:
		l.markConvergeStart()
		l.done(ctx, messages.TaskDone{Next: []messages.Task{
			{Kind: messages.TaskGlobalBinding, Owner: messages.OwnerGlobal, Binding: "beforeAll", Reason: t.Reason},
			{Kind: messages.TaskDiscover, Owner: messages.OwnerOperator, Reason: t.Reason},
		}})
	case messages.TaskDiscover:
		l.markConvergeStart()
		l.startDiscovery(ctx)
	case messages.TaskParallelModuleRun:
		l.startGroup(ctx, t)
	case messages.TaskModulePurge:
		ctx.Request(l.io, deleteRelease{Name: t.Module})
	case messages.TaskConvergeDone:
		if !l.opts.Board.Ready() {
			l.armDirsCheck(ctx)
		}
		l.converged()
		l.done(ctx, messages.TaskDone{})
	default:
		l.done(ctx, messages.TaskDone{Err: fmt.Sprintf("operator cannot run %s tasks", t.Kind)})
	}
}

func (l *lifecycle) done(ctx actor.Context, d messages.TaskDone) {
	d.ID, d.Queue = l.current.Task.ID, l.current.Task.Queue
	ctx.Send(l.current.Queue, d)
}

func (l *lifecycle) markConvergeStart() {
	if l.convergeStart.IsZero() {
		l.convergeStart = l.opts.Clock.Now()
	}
}

func (l *lifecycle) converged() {
	took := l.opts.Clock.Now().Sub(l.convergeStart)
	l.convergeStart = time.Time{}
	if !l.opts.Board.Ready() {
		// Ready first: whoever reads the log line finds /readyz 200.
		l.opts.Board.SetReady()
		l.opts.Log.Info("first converge done; ready", "took", took)
	} else {
		l.opts.Log.Info("converge done", "took", took)
	}
	if l.opts.Converged != nil {
		l.opts.Converged(took)
	}
}

// PurgedMessage is the message of the WARN record of a purge.
const PurgedMessage = "purged release without a module dir"

func (l *lifecycle) handleReleaseDeleted(ctx actor.Context, msg releaseDeleted) {
	if msg.Err != nil {
		l.done(ctx, messages.TaskDone{Err: fmt.Sprintf("purge release %s: %v", msg.Name, msg.Err)})
		return
	}
	t := l.current.Task
	// Counted before the log: a reader of the log finds the metric updated.
	if l.opts.Destructive != nil {
		l.opts.Destructive(msg.Name, worker.Destructive{Action: worker.ActionPurge, Reason: t.Cause})
	}
	l.opts.Log.Warn(PurgedMessage, "release", msg.Name, "reason", t.Reason)
	l.done(ctx, messages.TaskDone{})
}
