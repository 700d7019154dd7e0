package global

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/messages"
)

// watchKube starts the global hooks' kubernetes bindings; with sync their
// Synchronization runs come back to the actor (KubeSyncRuns), and those
// of named queues that wait are listed.
func (a *Actor) watchKube(ctx actor.Context, sync bool) {
	watch := messages.WatchKube{Owner: messages.OwnerGlobal}
	if sync {
		watch.SyncTo, watch.WaitNamed = ctx.Self(), true
	}
	sendTo(ctx, a.peers.Kube, a.core.Hooks.Monitors(watch, true))
}

// sendTo sends msg to pid, unless the peer is absent (tests without it).
func sendTo(ctx actor.Context, pid *actor.PID, msg any) {
	if pid != nil {
		ctx.Send(pid, msg)
	}
}
