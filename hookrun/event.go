package hookrun

import (
	"strings"

	"github.com/addon-actors/addon-operator/messages"
)

// TaskOf is the task an owner queues for a hook event
// (messages.HookEvent): the one place where a Kubernetes event, a schedule
// tick or a Synchronization that the kube actor sends as an event becomes
// a task, for the global and the module owners alike. (The Synchronization
// runs an owner takes as KubeSyncRuns are not events: a module runs them
// inside its module run, the global actor queues its main-queue ones from
// SyncWait.) Event runs of one hook that wait in a queue compact into one
// run (MergeKey, Compact); a Synchronization stays one task, since an
// owner may wait for it. Every such task is marked Event: the queue holds
// it back while module discovery fails.
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
