package owner

import (
	"strings"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/messages"
)

// EventTask is the hook run of an event (a Kubernetes event, a schedule
// tick, a binding's Synchronization): the one place where events become
// tasks. Waiting event runs of one hook compact into one; a
// Synchronization stays one task, since an owner may wait for it. The task
// is marked Event, so that the queue holds it while discovery fails.
func EventTask(ev messages.HookEvent) messages.Task {
	kind, module := messages.TaskGlobalHook, ""
	if name, isModule := strings.CutPrefix(ev.Owner, messages.ModuleOwner("")); isModule {
		kind, module = messages.TaskModuleHook, name
	}
	t := messages.Task{Queue: ev.Queue, Kind: kind, Owner: ev.Owner, Module: module, Hook: ev.Hook,
		Binding: ev.Binding, AllowFailure: ev.AllowFailure, Reason: ev.Source, Context: ev.Context,
		Contexts: 1, Sync: ev.Sync, Event: true}
	if !ev.Sync {
		t.MergeKey, t.Compact = "hook/"+ev.Owner+"/"+ev.Hook, true
	}
	return t
}

// EnqueueEvent queues the hook run of an event.
func EnqueueEvent(ctx actor.Context, queue *actor.PID, ev messages.HookEvent) {
	ctx.Send(queue, messages.Enqueue{Tasks: []messages.Task{EventTask(ev)}})
}
