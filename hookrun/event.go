package hookrun

import (
	"strings"

	"github.com/addon-actors/addon-operator/messages"
)

// TaskOf is the task an owner queues for a hook event
// (messages.HookEvent): a Kubernetes event, a schedule tick or a
// Synchronization that the kube actor sends as an event (one queued in a
// named queue). Event runs of one hook that wait in a queue compact into
// one run (MergeKey, Compact); a Synchronization stays one task, since an
// owner may wait for it. Every such task is marked Event: the queue holds
// it back while module discovery fails.
func TaskOf(ev messages.HookEvent) messages.Task {
	t := withContext(hookTask(ev.Owner, ev.Hook, ev.Binding), ev.Context, ev.AllowFailure)
	t.Queue, t.Reason, t.Sync, t.Event = ev.Queue, ev.Source, ev.Sync, true
	if !ev.Sync {
		t.MergeKey, t.Compact = "hook/"+ev.Owner+"/"+ev.Hook, true
	}
	return t
}

// EventTaskDuring is TaskOf for an event that arrives while its owner runs
// the task during (running): a Synchronization queued in a named queue
// comes from the watch that task started, and takes its activation, as the
// original labels it (OperatorStartup at start-up).
func EventTaskDuring(ev messages.HookEvent, during messages.Task, running bool) messages.Task {
	t := TaskOf(ev)
	if ev.Sync && running {
		t.Activation = during.Activation
	}
	return t
}

// SyncTaskOf is the task of a Synchronization run that an owner takes in
// KubeSyncRuns rather than as an event: the global actor queues it in main
// as a step of its GlobalSynchronization task, a module runs it as a step
// of its module run. It carries the binding's allowFailure, as an event's
// task does.
func SyncTaskOf(owner string, run messages.SyncRun) messages.Task {
	t := withContext(hookTask(owner, run.Hook, run.Binding), run.Context, run.AllowFailure)
	t.Sync, t.Reason = true, "Synchronization"
	return t
}

// OrderTaskOf is the task of one hook's run of an ORDER binding, a step of
// the task that runs the whole binding (its queue, binding, reason and
// activation).
func OrderTaskOf(owner, hook string, binding messages.Task) messages.Task {
	t := hookTask(owner, hook, binding.Binding)
	t.Queue, t.Reason, t.Activation = binding.Queue, binding.Reason, binding.Activation
	return t
}

// hookTask is what the tasks of hook runs share, for the global and the
// module owners alike: the one place a hook run becomes a task.
func hookTask(owner, hook, binding string) messages.Task {
	kind, module := messages.TaskGlobalHook, ""
	if name, ok := strings.CutPrefix(owner, messages.ModuleOwner("")); ok {
		kind, module = messages.TaskModuleHook, name
	}
	return messages.Task{Kind: kind, Owner: owner, Module: module, Hook: hook, Binding: binding}
}

// withContext gives a task its binding context, one context, and its
// binding's allowFailure.
func withContext(t messages.Task, context []byte, allowFailure bool) messages.Task {
	t.Context, t.Contexts, t.AllowFailure = context, 1, allowFailure
	return t
}
