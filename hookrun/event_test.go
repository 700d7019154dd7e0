package hookrun_test

import (
	"reflect"
	"testing"

	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/messages"
)

// TestTaskOf: hook events of either owner become the same tasks the event
// sources built before; a Synchronization is never compacted.
func TestTaskOf(t *testing.T) {
	ctx := []byte(`[{"binding":"pods","type":"Event"}]`)
	for _, tc := range []struct {
		name string
		ev   messages.HookEvent
		want messages.Task
	}{
		{"module kubernetes event", messages.HookEvent{Owner: "module/demo", Hook: "h.sh", Binding: "pods", Queue: "q",
			AllowFailure: true, Source: "kubernetes Pod", Context: ctx},
			messages.Task{Queue: "q", Kind: messages.TaskModuleHook, Owner: "module/demo", Module: "demo", Hook: "h.sh",
				Binding: "pods", AllowFailure: true, Reason: "kubernetes Pod", Context: ctx, Contexts: 1, Event: true,
				MergeKey: "hook/module/demo/h.sh", Compact: true}},
		{"global schedule tick", messages.HookEvent{Owner: "global", Hook: "g.sh", Binding: "every", Source: "schedule * * * * * *", Context: ctx},
			messages.Task{Kind: messages.TaskGlobalHook, Owner: "global", Hook: "g.sh", Binding: "every",
				Reason: "schedule * * * * * *", Context: ctx, Contexts: 1, Event: true, MergeKey: "hook/global/g.sh", Compact: true}},
		{"Synchronization", messages.HookEvent{Owner: "global", Hook: "g.sh", Binding: "pods", Source: "Synchronization of Pod", Context: ctx, Sync: true},
			messages.Task{Kind: messages.TaskGlobalHook, Owner: "global", Hook: "g.sh", Binding: "pods",
				Reason: "Synchronization of Pod", Context: ctx, Contexts: 1, Event: true, Sync: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := hookrun.TaskOf(tc.ev); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("task\n got  %+v\n want %+v", got, tc.want)
			}
		})
	}
}

// TestSyncTaskOf: a Synchronization run an owner takes in KubeSyncRuns
// becomes its owner's hook task, never compacted, with its binding's
// allowFailure (a global allowFailure binding's Synchronization task is
// dropped after a failure, not retried forever).
func TestSyncTaskOf(t *testing.T) {
	ctx := []byte(`[{"binding":"pods","type":"Synchronization"}]`)
	for _, tc := range []struct {
		name  string
		owner string
		run   messages.SyncRun
		want  messages.Task
	}{
		{"global allowFailure binding", messages.OwnerGlobal,
			messages.SyncRun{Hook: "g.sh", Binding: "pods", Context: ctx, AllowFailure: true},
			messages.Task{Kind: messages.TaskGlobalHook, Owner: "global", Hook: "g.sh", Binding: "pods", AllowFailure: true,
				Reason: "Synchronization", Context: ctx, Contexts: 1, Sync: true}},
		{"module binding", messages.ModuleOwner("demo"), messages.SyncRun{Hook: "h.sh", Binding: "pods", Context: ctx},
			messages.Task{Kind: messages.TaskModuleHook, Owner: "module/demo", Module: "demo", Hook: "h.sh", Binding: "pods",
				Reason: "Synchronization", Context: ctx, Contexts: 1, Sync: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := hookrun.SyncTaskOf(tc.owner, tc.run); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("task\n got  %+v\n want %+v", got, tc.want)
			}
		})
	}
}

// TestEventTaskDuring: a Synchronization that arrives while its owner runs
// a task takes that task's activation; an event, or one that arrives with
// no task running, has none.
func TestEventTaskDuring(t *testing.T) {
	run := messages.Task{Kind: messages.TaskModuleRun, Activation: messages.ActivationStartup}
	sync := messages.HookEvent{Owner: "module/demo", Hook: "h.sh", Binding: "pods", Queue: "q", Sync: true}
	event := messages.HookEvent{Owner: "module/demo", Hook: "h.sh", Binding: "pods", Queue: "q"}
	for _, tc := range []struct {
		name    string
		ev      messages.HookEvent
		running bool
		want    messages.Activation
	}{
		{"Synchronization during a run", sync, true, messages.ActivationStartup},
		{"Synchronization with no run", sync, false, ""},
		{"event during a run", event, true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := hookrun.EventTaskDuring(tc.ev, run, tc.running)
			want := hookrun.TaskOf(tc.ev)
			want.Activation = tc.want
			if !reflect.DeepEqual(got, want) {
				t.Errorf("task\n got  %+v\n want %+v", got, want)
			}
		})
	}
}
