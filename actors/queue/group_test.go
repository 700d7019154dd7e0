package queue_test

import (
	"context"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/actors/queue"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/supervision"
	"github.com/addon-actors/addon-operator/test/actortest"
)

// groupEnv is a queue actor whose module owners are one probe and whose
// operator is another, which hears the reports of a group's runs.
type groupEnv struct {
	*env
	operator  *actortest.Probe
	published chan struct{} // a snapshot was published
}

func newGroupEnv(t *testing.T) *groupEnv {
	kit := actortest.New(t)
	e := &groupEnv{env: &env{kit: kit, owner: kit.NewProbe()}, operator: kit.NewProbe(), published: make(chan struct{}, 1)}
	e.queue = kit.Spawn("queue", queue.New(queue.Options{
		Clock: kit.Clock, Policy: supervision.Fixed{Wait: time.Second},
		Queues: []string{messages.ParallelQueue(0), messages.ParallelQueue(1)},
		Resolve: func(owner string) *actor.PID {
			if owner == messages.OwnerOperator {
				return e.operator.PID
			}
			return e.owner.PID
		},
		Publish: func(s messages.QueueSnapshot) {
			e.mu.Lock()
			e.last = s
			e.mu.Unlock()
			select {
			case e.published <- struct{}{}:
			default:
			}
		},
	}))
	return e
}

// firstSnapshot waits for the actor's first publication (it publishes on
// start, from its own goroutine).
func (e *groupEnv) firstSnapshot(t *testing.T) messages.QueueSnapshot {
	t.Helper()
	select {
	case <-e.published:
	case <-time.After(patience):
		t.Fatal("no snapshot published after start")
	}
	return e.snapshot()
}

func groupRun(module string, queue int) messages.Task {
	t := messages.NewModuleRun(module, "converge")
	t.Queue, t.Group = messages.ParallelQueue(queue), 5
	return t
}

func (e *groupEnv) expectReport(t *testing.T, module string, outcome messages.GroupOutcome) messages.GroupRunReport {
	t.Helper()
	r := actortest.Expect[messages.GroupRunReport](e.operator, patience)
	if r.Module != module || r.Outcome != outcome || r.Group != 5 {
		t.Fatalf("report %+v, want %s %s of group 5", r, module, outcome)
	}
	return r
}

// The module runs of a group run side by side in their parallel queues;
// the operator hears each outcome: a failure (retried at the head of its
// queue), a success that queued a re-run (kept in its queue and group),
// a success.
func TestGroupRunsAreReported(t *testing.T) {
	e := newGroupEnv(t)
	if got := queueNames(e.firstSnapshot(t)); len(got) != 2 || got[0] != "parallel_queue_0" || got[1] != "parallel_queue_1" {
		t.Fatalf("queues at start %v, want the two parallel queues", got)
	}
	e.enqueue(groupRun("a", 0), groupRun("b", 1))
	runs := map[string]messages.Task{}
	for range 2 {
		r := actortest.Expect[messages.RunTask](e.owner, patience)
		runs[r.Task.Module] = r.Task
	}
	a, b := runs["a"], runs["b"]
	if a.Queue != "parallel_queue_0" || b.Queue != "parallel_queue_1" {
		t.Fatalf("runs %+v %+v, want a in parallel_queue_0 and b in parallel_queue_1", a, b)
	}
	e.done(a, "helm failed")
	if r := e.expectReport(t, "a", messages.GroupRunFailed); r.Err != "helm failed" || r.Queue != a.Queue {
		t.Fatalf("failure report %+v", r)
	}
	e.kit.Send(e.queue, messages.TaskDone{ID: b.ID, Queue: b.Queue,
		Later: []messages.Task{messages.NewModuleRun("b", "values changed by a hook")}})
	e.expectReport(t, "b", messages.GroupRunRequeued)
	rerun := actortest.Expect[messages.RunTask](e.owner, patience).Task
	if rerun.Module != "b" || rerun.Queue != b.Queue || rerun.Group != 5 {
		t.Fatalf("re-run %+v, want b in %s in group 5", rerun, b.Queue)
	}
	e.done(rerun, "")
	e.expectReport(t, "b", messages.GroupRunSucceeded)
	if err := e.kit.Clock.WaitForTimers(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	e.kit.Clock.Advance(time.Second)
	retry := actortest.Expect[messages.RunTask](e.owner, patience).Task
	if retry.ID != a.ID || retry.Attempts != 1 {
		t.Fatalf("retry %+v, want a again", retry)
	}
	e.done(retry, "")
	e.expectReport(t, "a", messages.GroupRunSucceeded)
}

func queueNames(s messages.QueueSnapshot) []string {
	var out []string
	for _, q := range s.Queues {
		out = append(out, q.Name)
	}
	return out
}
