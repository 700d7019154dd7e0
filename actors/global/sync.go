package global

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/messages"
)

// syncing is the running TaskGlobalSync: its decisions (SyncWait) and the
// queue's run it answers.
type syncing struct {
	wait  *SyncWait
	queue string // the task's queue
}

// startSync starts the kubernetes bindings of the global hooks.
func (a *Actor) startSync(ctx actor.Context, queue string) {
	hooks := a.core.Hooks
	if a.peers.Kube == nil || !hooks.HasKubernetes() {
		sendTo(ctx, a.peers.Schedule, hooks.Schedules(messages.OwnerGlobal, "", true))
		sendTo(ctx, a.peers.Kube, hooks.Monitors(messages.WatchKube{Owner: messages.OwnerGlobal}, true))
		a.webhooksSynced()
		a.step(ctx, SyncEnded{Queue: queue})
		return
	}
	a.sync = &syncing{wait: NewSyncWait(), queue: queue}
	sendTo(ctx, a.peers.Kube, hooks.Monitors(messages.WatchKube{Owner: messages.OwnerGlobal, SyncTo: ctx.Self(), WaitNamed: true}, true))
}

// handleKubeSyncRuns takes the Synchronization runs of the main queue's
// bindings and the named queues' runs to wait for.
func (a *Actor) handleKubeSyncRuns(ctx actor.Context, msg messages.KubeSyncRuns) {
	if a.sync != nil {
		a.syncStep(ctx, a.sync.wait.Listed(msg))
	}
}

// syncFinished notes a finished task for the wait.
func (a *Actor) syncFinished(ctx actor.Context, t messages.Task) {
	if a.sync != nil {
		a.syncStep(ctx, a.sync.wait.Finished(t))
	}
}

// syncStep carries out what the wait decided.
func (a *Actor) syncStep(ctx actor.Context, step SyncStep) {
	s := a.sync
	if step.Waiting > 0 {
		a.opts.Log.Info("waiting for the Synchronization of bindings in named queues", "runs", step.Waiting)
	}
	if step.Done {
		a.sync = nil
		if step.Err == "" {
			a.webhooksSynced()
		}
	}
	if step.EndTask {
		a.step(ctx, SyncEnded{Queue: s.queue, Done: messages.TaskDone{Err: step.Err, Next: step.Next}})
	}
	if step.StartSchedules {
		sendTo(ctx, a.peers.Schedule, a.core.Hooks.Schedules(messages.OwnerGlobal, "", true))
	}
}

// sendTo sends msg to pid, unless the peer is absent (tests without it).
func sendTo(ctx actor.Context, pid *actor.PID, msg any) {
	if pid != nil {
		ctx.Send(pid, msg)
	}
}
