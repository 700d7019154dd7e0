package queue

import (
	"reflect"
	"testing"

	"github.com/addon-actors/addon-operator/messages"
)

// keepInGroup keeps only a group's run's re-run of its own module in its
// queue and group; other reactions, and those of tasks outside a group,
// go where they were going.
func TestKeepInGroup(t *testing.T) {
	grouped := messages.NewModuleRun("a", "converge")
	grouped.Queue, grouped.Group = "parallel_queue_3", 9
	plain := messages.NewModuleRun("a", "converge")
	plain.Queue = messages.MainQueue
	hookRun := messages.Task{Kind: messages.TaskModuleHook, Module: "a", Queue: "parallel_queue_3", Group: 9}
	rerunA, runB := messages.NewModuleRun("a", "values changed"), messages.NewModuleRun("b", "values changed")
	kept := rerunA
	kept.Queue, kept.Group = "parallel_queue_3", 9
	cases := []struct {
		name  string
		done  messages.Task
		later []messages.Task
		want  []messages.Task
		rerun bool
	}{
		{name: "re-run of a grouped module stays in its queue", done: grouped, later: []messages.Task{runB, rerunA},
			want: []messages.Task{runB, kept}, rerun: true},
		{name: "no re-run", done: grouped, later: []messages.Task{runB}, want: []messages.Task{runB}},
		{name: "not in a group", done: plain, later: []messages.Task{rerunA}, want: []messages.Task{rerunA}},
		{name: "not a module run", done: hookRun, later: []messages.Task{rerunA}, want: []messages.Task{rerunA}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, rerun := keepInGroup(tc.done, tc.later)
			if !reflect.DeepEqual(got, tc.want) || rerun != tc.rerun {
				t.Errorf("got %+v %v, want %+v %v", got, rerun, tc.want, tc.rerun)
			}
		})
	}
}
