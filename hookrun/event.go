package hookrun

import (
	"strings"

	"github.com/addon-actors/addon-operator/messages"
)

// TaskOf is the task an owner queues for a hook event: the one place where
// a Kubernetes event, a schedule tick or a binding's Synchronization
// becomes a task, for the global and the module owners alike. Event runs
// of one hook that wait in the queue compact into one run; a
// Synchronization stays one task, since an owner may wait for it.
func TaskOf(ev messages.HookEvent) messages.Task {
	kind, module := messages.TaskGlobalHook, ""
	if name, ok := strings.CutPrefix(ev.Owner, messages.ModuleOwner("")); ok {
		kind, module = messages.TaskModuleHook, name
	}
	t := messages.Task{Queue: ev.Queue, Kind: kind, Owner: ev.Owner, Module: module, Hook: ev.Hook,
		Binding: ev.Binding, AllowFailure: ev.AllowFailure, Reason: ev.Source, Context: ev.Context, Contexts: 1, Sync: ev.Sync, Event: true}
	if !ev.Sync {
		t.MergeKey, t.Compact = "hook/"+ev.Owner+"/"+ev.Hook, true
	}
	return t
}
