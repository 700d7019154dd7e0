package global

import (
	"reflect"
	"testing"

	"github.com/addon-actors/addon-operator/messages"
)

// syncEvent is the list of runs (list set) or a task's end, and what the
// wait should decide on it.
type syncEvent struct {
	list *messages.KubeSyncRuns
	task messages.Task
	want SyncStep
}

// on hands the event to w.
func (ev syncEvent) on(w *SyncWait) SyncStep {
	if ev.list != nil {
		return w.Listed(*ev.list)
	}
	return w.Finished(ev.task)
}

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
	for _, tc := range []struct {
		name   string
		events []syncEvent
	}{
		{"named run finishes after the list", []syncEvent{
			{list: &list, want: SyncStep{Waiting: 1}},
			{task: messages.Task{Hook: "named.sh", Binding: "b"}}, // not a Synchronization run
			{task: syncRun("named.sh"), want: SyncStep{EndTask: true, Next: nextMain}},
			{task: syncRun("main.sh"), want: SyncStep{Done: true, StartSchedules: true}},
		}},
		{"named run finishes before the list", []syncEvent{
			{task: syncRun("named.sh")},
			{list: &list, want: SyncStep{EndTask: true, Next: nextMain}},
			{list: &list}, // a second list is ignored
			{task: syncRun("main.sh"), want: SyncStep{Done: true, StartSchedules: true}},
		}},
		{"main's runs carry allowFailure; a dropped failure counts as finished", []syncEvent{
			{list: &messages.KubeSyncRuns{Runs: []messages.SyncRun{{Hook: "main.sh", Binding: "b", AllowFailure: true}}},
				want: SyncStep{EndTask: true, Next: []messages.Task{allowing(nextMain[0])}}},
			{task: allowing(syncRun("main.sh")), want: SyncStep{Done: true, StartSchedules: true}},
		}},
		{"nothing to wait for", []syncEvent{
			{list: &messages.KubeSyncRuns{}, want: SyncStep{EndTask: true, Done: true, StartSchedules: true}},
		}},
		{"bindings fail", []syncEvent{
			{list: &messages.KubeSyncRuns{Err: "pods: forbidden"}, want: SyncStep{EndTask: true, Err: "kubernetes bindings: pods: forbidden", Done: true}},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := NewSyncWait()
			for i, ev := range tc.events {
				if got := ev.on(w); !reflect.DeepEqual(got, ev.want) {
					t.Fatalf("event %d: %+v, want %+v", i, got, ev.want)
				}
			}
		})
	}
}
