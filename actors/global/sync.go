package global

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/messages"
)

// syncing is the start of the global hooks' bindings (TaskGlobalSync),
// after their onStartup hooks (LIFECYCLE-STEPS steps 1–3). The kubernetes
// bindings start first; the task ends with the Synchronization runs of the
// main queue's bindings as its next steps, in hook order, once those queued
// in named queues that wait (waitForSynchronization) have finished, so
// that beforeAll follows every one of them. The schedules start when every
// Synchronization run has finished, as the original enables them after.
type syncing struct {
	run    *run // nil once the task has ended
	listed bool // KubeSyncRuns arrived
	next   []messages.Task
	// left are the runs still to finish: the named queues' that wait
	// (they may finish before KubeSyncRuns arrives), then main's.
	left     map[messages.SyncRef]bool
	finished map[messages.SyncRef]bool
}

// startSync starts the kubernetes bindings of the global hooks.
func (a *Actor) startSync(ctx actor.Context, r *run) {
	if a.peers.Kube == nil || !a.hooks.HasKubernetes() {
		sendTo(ctx, a.peers.Schedule, a.hooks.Schedules(messages.OwnerGlobal, "", true))
		sendTo(ctx, a.peers.Kube, a.hooks.Monitors(messages.WatchKube{Owner: messages.OwnerGlobal}, true))
		a.done(ctx, r, messages.TaskDone{})
		return
	}
	a.sync = &syncing{run: r, left: map[messages.SyncRef]bool{}, finished: map[messages.SyncRef]bool{}}
	sendTo(ctx, a.peers.Kube, a.hooks.Monitors(messages.WatchKube{Owner: messages.OwnerGlobal, SyncTo: ctx.Self(), WaitNamed: true}, true))
}

// handleKubeSyncRuns takes the Synchronization runs of the main queue's
// bindings and the named queues' runs to wait for.
func (a *Actor) handleKubeSyncRuns(ctx actor.Context, msg messages.KubeSyncRuns) {
	s := a.sync
	if s == nil || s.listed {
		return
	}
	if msg.Err != "" {
		a.sync = nil
		a.done(ctx, s.run, messages.TaskDone{Err: "kubernetes bindings: " + msg.Err})
		return
	}
	for _, r := range msg.Runs {
		s.next = append(s.next, messages.Task{Kind: messages.TaskGlobalHook, Owner: messages.OwnerGlobal,
			Hook: r.Hook, Binding: r.Binding, Context: r.Context, Contexts: 1, Sync: true, Reason: "Synchronization"})
	}
	for _, ref := range msg.Waited {
		if !s.finished[ref] {
			s.left[ref] = true
		}
	}
	s.listed = true
	if len(s.left) > 0 {
		a.opts.Log.Info("waiting for the Synchronization of bindings in named queues", "runs", len(s.left))
	}
	a.syncProgress(ctx)
}

// syncFinished notes a finished Synchronization run (a failure that its
// allowFailure drops counts as finished).
func (a *Actor) syncFinished(ctx actor.Context, t messages.Task) {
	if a.sync == nil || !t.Sync {
		return
	}
	ref := messages.SyncRef{Hook: t.Hook, Binding: t.Binding}
	a.sync.finished[ref] = true
	delete(a.sync.left, ref)
	a.syncProgress(ctx)
}

// syncProgress ends the task once the named queues' runs have finished,
// and starts the schedules once main's have too.
func (a *Actor) syncProgress(ctx actor.Context) {
	s := a.sync
	if s == nil || !s.listed || len(s.left) > 0 {
		return
	}
	if s.run != nil {
		for _, t := range s.next {
			s.left[messages.SyncRef{Hook: t.Hook, Binding: t.Binding}] = true
		}
		r := s.run
		s.run = nil
		a.done(ctx, r, messages.TaskDone{Next: s.next})
		if len(s.left) > 0 {
			return
		}
	}
	a.sync = nil
	sendTo(ctx, a.peers.Schedule, a.hooks.Schedules(messages.OwnerGlobal, "", true))
}

// sendTo sends msg to pid, unless the peer is absent (tests without it).
func sendTo(ctx actor.Context, pid *actor.PID, msg any) {
	if pid != nil {
		ctx.Send(pid, msg)
	}
}
