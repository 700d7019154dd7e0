package owner

import (
	"reflect"
	"testing"

	"github.com/addon-actors/addon-operator/messages"
)

// An event becomes the task the event sources built before: a global or a
// module hook run, compacting unless it is a Synchronization, marked Event.
func TestEventTask(t *testing.T) {
	ctx := []byte(`[{"binding":"b"}]`)
	cases := []struct {
		ev   messages.HookEvent
		want messages.Task
	}{
		{messages.HookEvent{Owner: "global", Hook: "h", Binding: "b", Queue: "q", AllowFailure: true, Source: "schedule * * * * *", Context: ctx},
			messages.Task{Queue: "q", Kind: messages.TaskGlobalHook, Owner: "global", Hook: "h", Binding: "b", AllowFailure: true,
				Reason: "schedule * * * * *", Context: ctx, Contexts: 1, MergeKey: "hook/global/h", Compact: true, Event: true}},
		{messages.HookEvent{Owner: "module/m", Hook: "m/h", Binding: "b", Source: "Synchronization of Pod", Context: ctx, Sync: true},
			messages.Task{Kind: messages.TaskModuleHook, Owner: "module/m", Module: "m", Hook: "m/h", Binding: "b",
				Reason: "Synchronization of Pod", Context: ctx, Contexts: 1, Sync: true, Event: true}},
	}
	for _, c := range cases {
		if got := EventTask(c.ev); !reflect.DeepEqual(got, c.want) {
			t.Errorf("EventTask(%+v)\n got %+v\nwant %+v", c.ev, got, c.want)
		}
	}
}
