package messages_test

import (
	"testing"

	"github.com/addon-actors/addon-operator/messages"
)

func TestSummaries(t *testing.T) {
	run := messages.NewModuleRun("hello", "values changed")
	run.ID = 7
	for _, c := range []struct {
		msg  interface{ Summary() string }
		want string
	}{
		{messages.RunTask{Task: run}, "#7 " + string(run.Kind) + " hello (values changed)"},
		{messages.TaskDone{ID: 7}, "#7 done"},
		{messages.TaskDone{ID: 7, Err: "hook h: exit status 1"}, "#7 failed: hook h: exit status 1"},
		{messages.Enqueue{Tasks: []messages.Task{run, run}}, "2 tasks, first: #7 " + string(run.Kind) + " hello (values changed)"},
		{messages.HookEvent{Hook: "h", Binding: "pods", Source: "kubernetes Pod"}, "h pods: kubernetes Pod"},
	} {
		if got := c.msg.Summary(); got != c.want {
			t.Errorf("%T: %q, want %q", c.msg, got, c.want)
		}
	}
}
