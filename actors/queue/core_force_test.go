package queue

import (
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/messages"
)

// A reconcile asked on a Module object (a forced module run) is not lost
// when a run of the module already waits: the waiting run absorbs it and
// is forced; a forced run that waits absorbs a plain one and stays forced.
func TestForcedModuleRunSurvivesTheMerge(t *testing.T) {
	forced := func(module string) messages.Task {
		t := messages.NewModuleRun(module, "reconcile requested")
		t.Force = true
		return t
	}
	cases := []struct {
		name  string
		tasks []messages.Task
	}{
		{"forced after plain", []messages.Task{messages.NewModuleRun("web", "values"), forced("web")}},
		{"plain after forced", []messages.Task{forced("web"), messages.NewModuleRun("web", "values")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newTestCore()
			env := Env{Now: time.Unix(100, 0)}
			c.Step(enqueued(globalHook("busy")), env) // main runs it: the module runs wait
			c.Step(enqueued(tc.tasks...), env)
			snap := c.Snapshot(env.Now)
			var runs []messages.Task
			for _, task := range snap.Queues[0].Tasks {
				if task.Kind == messages.TaskModuleRun {
					runs = append(runs, task)
				}
			}
			if len(runs) != 1 || !runs[0].Force {
				t.Fatalf("module runs waiting = %+v, want one, forced", runs)
			}
		})
	}
}
