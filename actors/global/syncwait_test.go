package global

import (
	"reflect"
	"testing"

	"github.com/addon-actors/addon-operator/messages"
)

func syncRun(hook string) messages.Task {
	return messages.Task{Kind: messages.TaskGlobalHook, Hook: hook, Binding: "b", Sync: true}
}

func allowing(t messages.Task) messages.Task {
	t.AllowFailure = true
	return t
}

// TestSyncWait: the GlobalSynchronization task ends once it has the list
// and the named queues' runs it waits for have finished (in any order,
// even before the list); the schedules start once main's runs have too.
func TestSyncWait(t *testing.T) {
	ref := func(hook string) messages.SyncRef { return messages.SyncRef{Hook: hook, Binding: "b"} }
	list := messages.KubeSyncRuns{Runs: []messages.SyncRun{{Hook: "main.sh", Binding: "b"}}, Waited: []messages.SyncRef{ref("named.sh")}}
	nextMain := []messages.Task{{Kind: messages.TaskGlobalHook, Owner: messages.OwnerGlobal, Hook: "main.sh", Binding: "b",
		Contexts: 1, Sync: true, Reason: "Synchronization"}}
	type event struct {
		list *messages.KubeSyncRuns
		task messages.Task
		want SyncStep
	}
	for _, tc := range []struct {
		name   string
		events []event
	}{
		{"named run finishes after the list", []event{
			{list: &list, want: SyncStep{Waiting: 1}},
			{task: messages.Task{Hook: "named.sh", Binding: "b"}}, // not a Synchronization run
			{task: syncRun("named.sh"), want: SyncStep{EndTask: true, Next: nextMain}},
			{task: syncRun("main.sh"), want: SyncStep{Done: true, StartSchedules: true}},
		}},
		{"named run finishes before the list", []event{
			{task: syncRun("named.sh")},
			{list: &list, want: SyncStep{EndTask: true, Next: nextMain}},
			{list: &list}, // a second list is ignored
			{task: syncRun("main.sh"), want: SyncStep{Done: true, StartSchedules: true}},
		}},
		{"main's runs carry allowFailure; a dropped failure counts as finished", []event{
			{list: &messages.KubeSyncRuns{Runs: []messages.SyncRun{{Hook: "main.sh", Binding: "b", AllowFailure: true}}},
				want: SyncStep{EndTask: true, Next: []messages.Task{allowing(nextMain[0])}}},
			{task: allowing(syncRun("main.sh")), want: SyncStep{Done: true, StartSchedules: true}},
		}},
		{"nothing to wait for", []event{
			{list: &messages.KubeSyncRuns{}, want: SyncStep{EndTask: true, Done: true, StartSchedules: true}},
		}},
		{"bindings fail", []event{
			{list: &messages.KubeSyncRuns{Err: "pods: forbidden"}, want: SyncStep{EndTask: true, Err: "kubernetes bindings: pods: forbidden", Done: true}},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := NewSyncWait()
			for i, ev := range tc.events {
				var got SyncStep
				if ev.list != nil {
					got = w.Listed(*ev.list)
				} else {
					got = w.Finished(ev.task)
				}
				if !reflect.DeepEqual(got, ev.want) {
					t.Fatalf("event %d: %+v, want %+v", i, got, ev.want)
				}
			}
		})
	}
}
