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
