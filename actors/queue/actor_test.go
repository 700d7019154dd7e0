package queue_test

import (
	"context"
	"log/slog"
	"maps"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/actors/queue"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/supervision"
	"github.com/addon-actors/addon-operator/test/actortest"
)

const patience = 5 * time.Second

// env is a queue actor whose every owner is one probe, so the test plays
// the owners: it sees each RunTask and answers TaskDone itself.
type env struct {
	kit   *actortest.Kit
	owner *actortest.Probe
	queue *actor.PID

	mu      sync.Mutex
	last    messages.QueueSnapshot
	dropped []messages.Task
}

func newEnv(t *testing.T, policy supervision.Policy) *env {
	kit := actortest.New(t)
	e := &env{kit: kit, owner: kit.NewProbe()}
	e.queue = kit.Spawn("queue", queue.New(queue.Options{
		Clock: kit.Clock, Policy: policy,
		Resolve: func(string) *actor.PID { return e.owner.PID },
		Publish: func(s messages.QueueSnapshot) { e.mu.Lock(); e.last = s; e.mu.Unlock() },
		Dropped: func(t messages.Task, _ string) { e.mu.Lock(); e.dropped = append(e.dropped, t); e.mu.Unlock() },
	}))
	return e
}

func (e *env) snapshot() messages.QueueSnapshot {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.last
}

func (e *env) enqueue(tasks ...messages.Task) {
	e.kit.Send(e.queue, messages.Enqueue{Tasks: tasks})
}

// expectRun returns the next task the queue asks to run.
func (e *env) expectRun(t *testing.T, wantHook string) messages.Task {
	t.Helper()
	r := actortest.Expect[messages.RunTask](e.owner, patience)
	if r.Task.Hook != wantHook {
		t.Fatalf("running %q, want %q", r.Task.Hook, wantHook)
	}
	return r.Task
}

// expectRuns returns the next len(hooks) tasks the queue asks to run, by
// hook: they run concurrently, in any order, and must be those of hooks.
func (e *env) expectRuns(t *testing.T, hooks ...string) map[string]messages.Task {
	t.Helper()
	got := map[string]messages.Task{}
	for range hooks {
		r := actortest.Expect[messages.RunTask](e.owner, patience)
		got[r.Task.Hook] = r.Task
	}
	for _, h := range hooks {
		if _, ok := got[h]; !ok {
			t.Fatalf("running %v, want %v", slices.Sorted(maps.Keys(got)), hooks)
		}
	}
	return got
}

func (e *env) done(task messages.Task, err string, next ...messages.Task) {
	e.kit.Send(e.queue, messages.TaskDone{ID: task.ID, Queue: task.Queue, Err: err, Next: next})
}

func hook(name string) messages.Task {
	return messages.Task{Kind: messages.TaskGlobalHook, Owner: messages.OwnerGlobal, Hook: name}
}

func inQueue(t messages.Task, q string) messages.Task { t.Queue = q; return t }

func TestQueuesRunOneTaskAtATimeEachAndConcurrently(t *testing.T) {
	e := newEnv(t, supervision.Fixed{Wait: time.Second})
	e.enqueue(hook("a"), hook("b"), inQueue(hook("n1"), "named"))
	got := e.expectRuns(t, "a", "n1")              // main's head, and the named queue beside main
	e.owner.ExpectNoMessage(20 * time.Millisecond) // b waits for a
	e.done(got["a"], "")
	b := e.expectRun(t, "b")
	e.done(b, "")
	e.done(got["n1"], "")
	e.owner.ExpectNoMessage(20 * time.Millisecond)
}

func TestFailedTaskIsRetriedAfterThePolicyDelayAtTheHead(t *testing.T) {
	policy := supervision.Exponential{Initial: 5 * time.Second, Max: 32 * time.Second,
		Jitter: func(time.Duration) time.Duration { return 0 }}
	e := newEnv(t, policy)
	e.enqueue(hook("flaky"), hook("after"))
	task := e.expectRun(t, "flaky")
	var elapsed time.Duration
	for attempt, delay := range []time.Duration{5 * time.Second, 7 * time.Second, 9 * time.Second} {
		e.done(task, "exit code 1")
		if err := e.kit.Clock.WaitForTimers(context.Background(), 1); err != nil {
			t.Fatal(err)
		}
		head := e.snapshot().Queues[0].Tasks[0]
		if head.Hook != "flaky" || head.Attempts != attempt+1 || head.LastError != "exit code 1" ||
			!head.NextRetry.Equal(actortest.Epoch.Add(elapsed+delay)) {
			t.Fatalf("after failure %d the head is %+v", attempt+1, head)
		}
		e.kit.Clock.Advance(delay - time.Millisecond)
		e.owner.ExpectNoMessage(10 * time.Millisecond)
		e.kit.Clock.Advance(time.Millisecond)
		elapsed += delay
		task = e.expectRun(t, "flaky")
	}
	e.done(task, "")
	e.expectRun(t, "after")
}

func TestAllowFailureTaskIsDropped(t *testing.T) {
	e := newEnv(t, supervision.Fixed{Wait: time.Second})
	tolerant := hook("tolerant")
	tolerant.AllowFailure = true
	e.enqueue(tolerant, hook("next"))
	e.done(e.expectRun(t, "tolerant"), "boom")
	e.expectRun(t, "next")
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.dropped) != 1 || e.dropped[0].Hook != "tolerant" {
		t.Fatalf("dropped %+v", e.dropped)
	}
}

func TestRepeatedModuleRunsMergeWhileWaiting(t *testing.T) {
	e := newEnv(t, supervision.Fixed{Wait: time.Second})
	run := func(module string) messages.Task {
		return messages.Task{Kind: messages.TaskModuleRun, Owner: messages.ModuleOwner(module), Module: module,
			Hook: "run-" + module, MergeKey: "ModuleRun/" + module}
	}
	e.enqueue(run("a"))
	first := e.expectRun(t, "run-a")
	// a is running: one more run of a may wait; the third merges into it.
	e.enqueue(run("a"), run("b"), run("a"), run("b"))
	e.done(first, "")
	e.done(e.expectRun(t, "run-a"), "")
	e.done(e.expectRun(t, "run-b"), "")
	e.owner.ExpectNoMessage(20 * time.Millisecond)
}

func TestNextTasksRunBeforeTheRestOfTheQueue(t *testing.T) {
	e := newEnv(t, supervision.Fixed{Wait: time.Second})
	e.enqueue(hook("expand"), hook("later"))
	expand := e.expectRun(t, "expand")
	e.done(expand, "", hook("step1"), hook("step2"))
	e.done(e.expectRun(t, "step1"), "")
	e.done(e.expectRun(t, "step2"), "")
	e.expectRun(t, "later")
}

func TestTaskOfARestartedOwnerIsRetried(t *testing.T) {
	e := newEnv(t, supervision.Fixed{Wait: 2 * time.Second})
	e.enqueue(hook("lost"))
	e.expectRun(t, "lost")
	e.kit.System.Actors.EventStream.Publish(supervision.ActorRestarted{Actor: e.owner.PID.Id, Reason: "bug"})
	if err := e.kit.Clock.WaitForTimers(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	e.kit.Clock.Advance(2 * time.Second)
	task := e.expectRun(t, "lost")
	if task.Attempts != 1 {
		t.Fatalf("retried task %+v, want one attempt recorded", task)
	}
}

// expectLog waits for a record with message msg, failing on another one.
func expectLog(t *testing.T, l chan slog.Record, msg string) {
	t.Helper()
	select {
	case r := <-l:
		if got := r.Message; got != msg {
			t.Fatalf("logged %q, want %q", got, msg)
		}
	case <-time.After(patience):
		t.Fatalf("%q not logged", msg)
	}
}

// "queues idle" is logged once, when the last task of all queues is gone
// (not while a retry waits, nor between two tasks).
func TestQueuesIdleIsLoggedWhenTheLastTaskEnds(t *testing.T) {
	kit := actortest.New(t)
	owner, logs := kit.NewProbe(), make(chan slog.Record, 16)
	q := kit.Spawn("queue", queue.New(queue.Options{Clock: kit.Clock, Policy: supervision.Fixed{Wait: time.Second},
		Log: slog.New(actortest.LogHandler(logs)), Resolve: func(string) *actor.PID { return owner.PID }}))
	kit.Send(q, messages.Enqueue{Tasks: []messages.Task{hook("a"), hook("b")}})
	a := actortest.Expect[messages.RunTask](owner, patience).Task
	kit.Send(q, messages.TaskDone{ID: a.ID, Queue: a.Queue, Err: "exit 1"})
	expectLog(t, logs, "task failed; retrying")
	if err := kit.Clock.WaitForTimers(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	kit.Clock.Advance(time.Second)
	a = actortest.Expect[messages.RunTask](owner, patience).Task
	kit.Send(q, messages.TaskDone{ID: a.ID, Queue: a.Queue})
	b := actortest.Expect[messages.RunTask](owner, patience).Task
	kit.Send(q, messages.TaskDone{ID: b.ID, Queue: b.Queue})
	expectLog(t, logs, "queues idle")
	if len(logs) != 0 {
		t.Fatalf("more records: %q", (<-logs).Message)
	}
}

// Runs of one hook that wait behind a running one merge: their binding
// contexts are appended in order and counted (/queue shows how many).
func TestWaitingRunsOfAHookCompact(t *testing.T) {
	e := newEnv(t, supervision.Fixed{Wait: time.Second})
	event := func(ctx string) messages.Task {
		t := hook("h")
		t.MergeKey, t.Compact, t.Context, t.Contexts = "hook/global/h", true, []byte(ctx), 1
		return t
	}
	e.enqueue(event(`[{"binding":"a"}]`))
	first := e.expectRun(t, "h")
	e.enqueue(event(`[{"binding":"b"}]`), event(`[{"binding":"c"}]`))
	e.done(first, "")
	merged := e.expectRun(t, "h")
	if string(merged.Context) != `[{"binding":"b"},{"binding":"c"}]` || merged.Contexts != 2 {
		t.Fatalf("merged run: %d contexts %s", merged.Contexts, merged.Context)
	}
}

// A running task shows what its owner says it is doing (TaskProgress)
// until it fails or finishes; a progress that comes after is ignored.
func TestRunningTaskShowsItsProgress(t *testing.T) {
	e := newEnv(t, supervision.Fixed{Wait: time.Second})
	e.enqueue(hook("wait"))
	task := e.expectRun(t, "wait")
	progress := messages.TaskProgress{Queue: task.Queue, ID: task.ID, Status: "waiting for Deployment ns/web: 0/1 available",
		Since: actortest.Epoch}
	e.kit.Send(e.queue, progress)
	e.enqueue(inQueue(hook("n1"), "named")) // handled after the progress: a barrier
	e.expectRun(t, "n1")
	if head := e.snapshot().Queues[0].Tasks[0]; head.Status != progress.Status || !head.StatusSince.Equal(actortest.Epoch) {
		t.Fatalf("running head %+v, want status %q", head, progress.Status)
	}
	e.done(task, "not ready")
	if err := e.kit.Clock.WaitForTimers(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	if head := e.snapshot().Queues[0].Tasks[0]; head.Status != "" || head.LastError != "not ready" {
		t.Fatalf("failed head %+v, want no status", head)
	}
	e.kit.Send(e.queue, progress) // late: the run is over
	e.kit.Clock.Advance(time.Second)
	e.expectRun(t, "wait")
	e.enqueue(inQueue(hook("n2"), "other")) // a barrier again: the retry is published
	e.expectRun(t, "n2")
	if head := e.snapshot().Queues[0].Tasks[0]; head.Status != "" || !head.Running {
		t.Fatalf("retried head %+v, want running without the late status", head)
	}
}
