package operator_test

import (
	"reflect"
	"testing"

	"github.com/addon-actors/addon-operator/actors/operator"
	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/test/actortest"
)

// With ADDON_OPERATOR_PARALLEL_MODULE_RUNS=2, discovery queues one
// ParallelModuleRun per weight of two or more modules and a plain run in
// main for a weight of one (UPSTREAM §4), weights in order; the operator
// runs a ParallelModuleRun in the parallel queues, one going run per
// queue; a failed run frees its queue while it waits for its retry, and
// the task ends (main goes on to the next weight) once every module has
// succeeded.
func TestParallelModuleRunQueuesTheGroup(t *testing.T) {
	defs := []layout.Definition{definition(t, "010-a", true, false), definition(t, "010-b", true, false),
		definition(t, "010-c", true, false), definition(t, "020-d", true, false)}
	e := startWith(t, defs, nil, func(o *operator.LifecycleOptions) { o.ParallelModuleRuns = 2 })
	e.boot(t, 5)
	done := e.runTask(t, messages.Task{Kind: messages.TaskDiscover, Owner: messages.OwnerOperator},
		answer{"a", true, nil}, answer{"b", true, []string{"a"}}, answer{"c", true, []string{"a", "b"}},
		answer{"d", true, []string{"a", "b", "c"}})
	group := done.Next[0]
	if group.Kind != messages.TaskParallelModuleRun || !reflect.DeepEqual(group.Modules, []string{"a", "b", "c"}) {
		t.Fatalf("first step %+v, want a ParallelModuleRun of a, b, c", group)
	}
	if lone := done.Next[1]; lone.Kind != messages.TaskModuleRun || lone.Module != "d" || lone.Queue != "" {
		t.Fatalf("second step %+v, want d's plain run (queued in main)", lone)
	}
	if got := kinds(done.Next[2:]); !reflect.DeepEqual(got, []string{"GlobalBindingRun  afterAll", "ConvergeDone"}) {
		t.Fatalf("then %v", got)
	}
	group.ID, group.Queue = 42, messages.MainQueue
	e.probe.Send(e.root, messages.RunTask{Task: group})
	if got := queued(t, expectEnqueue(t, e)); !reflect.DeepEqual(got,
		[]string{"a@parallel_queue_0", "b@parallel_queue_1"}) {
		t.Fatalf("queued %v", got)
	}
	report := func(module string, queue int, outcome messages.GroupOutcome) {
		e.kit.Send(e.root, messages.GroupRunReport{Group: 42, Module: module, Queue: messages.ParallelQueue(queue), Outcome: outcome})
	}
	report("a", 0, messages.GroupRunFailed)
	if got := queued(t, expectEnqueue(t, e)); !reflect.DeepEqual(got, []string{"c@parallel_queue_0"}) {
		t.Fatalf("queued %v after a failed", got)
	}
	report("b", 1, messages.GroupRunSucceeded)
	report("c", 0, messages.GroupRunSucceeded)
	report("a", 0, messages.GroupRunSucceeded)
	end := actortest.Expect[messages.TaskDone](e.probe, patience)
	if end.ID != 42 || end.Queue != messages.MainQueue || end.Err != "" {
		t.Fatalf("TaskDone %+v, want the ParallelModuleRun's success", end)
	}
}

func queued(t *testing.T, q messages.Enqueue) []string {
	t.Helper()
	var out []string
	for _, task := range q.Tasks {
		if task.Kind != messages.TaskModuleRun || task.Group != 42 {
			t.Fatalf("not a module run of group 42: %+v", task)
		}
		out = append(out, task.Module+"@"+task.Queue)
	}
	return out
}

// expectEnqueue returns the next Enqueue, past the HoldEvents that the end
// of discovery sends the queue.
func expectEnqueue(t *testing.T, e *env) messages.Enqueue {
	t.Helper()
	for {
		switch msg := e.probe.Receive(patience).Message.(type) {
		case messages.Enqueue:
			return msg
		case messages.HoldEvents:
		default:
			t.Fatalf("got %T %+v, want an Enqueue", msg, msg)
		}
	}
}
