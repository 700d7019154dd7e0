package queue

import (
	"strings"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/messages"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// kinds lists a queue's tasks as kind:module, head first.
func kinds(q *Queues, name string) string {
	var out []string
	for _, t := range q.lines[name].tasks {
		s := string(t.Kind)
		if t.Module != "" {
			s += ":" + t.Module
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}

// failHead runs a queue's head and fails it.
func failHead(t *testing.T, q *Queues, name string) messages.Task {
	t.Helper()
	run, ok := q.Next(name)
	if !ok {
		t.Fatalf("%s: nothing to run", name)
	}
	failed, ok := q.Fail(name, run.ID, "boom", t0.Add(time.Minute))
	if !ok {
		t.Fatalf("%s: fail %d", name, run.ID)
	}
	return failed
}

func converge(t messages.Task) messages.Task { t.Converge = true; return t }

// A module run queued while a run of its module waits for a retry takes
// its place and may run at once; a run that is running, or of another
// module, is not replaced.
func TestReplaceTakesThePlaceOfARetry(t *testing.T) {
	cases := []struct {
		name     string
		fail     bool // the head failed before the new run is queued
		add      messages.Task
		replaced bool
		want     string
	}{
		{name: "retry replaced", fail: true, add: messages.NewModuleRun("a", "module section changed"), replaced: true,
			want: "ModuleRun:a ModuleRun:b"},
		{name: "running run is not replaced", add: messages.NewModuleRun("a", "x"),
			want: "ModuleRun:a ModuleRun:b ModuleRun:a"},
		{name: "other module", fail: true, add: messages.NewModuleRun("c", "x"),
			want: "ModuleRun:a ModuleRun:b ModuleRun:c"},
		{name: "hook runs are never replaced", fail: true,
			add:  messages.Task{Kind: messages.TaskModuleHook, Module: "a", MergeKey: string(messages.TaskModuleRun) + "/a"},
			want: "ModuleRun:a ModuleRun:b ModuleHookRun:a"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			q := NewQueues()
			q.Append(messages.NewModuleRun("a", "converge"), t0)
			q.Append(messages.NewModuleRun("b", "converge"), t0)
			if tc.fail {
				failHead(t, q, messages.MainQueue)
			} else {
				q.Next(messages.MainQueue)
			}
			q.Append(tc.add, t0)
			if got := kinds(q, messages.MainQueue); got != tc.want {
				t.Fatalf("main = %s, want %s", got, tc.want)
			}
			replaced := q.TakeReplaced()
			if (len(replaced) == 1) != tc.replaced {
				t.Fatalf("replaced %v, want %v", replaced, tc.replaced)
			}
			if !tc.replaced {
				return
			}
			head, ok := q.Next(messages.MainQueue)
			if !ok || head.Reason != "module section changed" || head.Attempts != 0 ||
				!strings.Contains(head.Supersedes, "attempt 1 failed: boom") {
				t.Fatalf("head %+v (runnable %v), want the new run at once with its backoff reset", head, ok)
			}
		})
	}
}

// A failed run of a converge graph steps aside: the tasks behind it run
// while it waits for its retry, and it runs again when its retry is due.
func TestGraphRunStepsAsideWhileItWaitsForItsRetry(t *testing.T) {
	q := NewQueues()
	pq := messages.ParallelQueue(0)
	for _, m := range []string{"a", "b"} {
		run := messages.NewModuleRun(m, "converge")
		run.Queue, run.Group = pq, 7
		q.Append(run, t0)
	}
	a := failHead(t, q, pq)
	b, ok := q.Next(pq)
	if !ok || b.Module != "b" {
		t.Fatalf("next = %+v %v, want b while a waits", b, ok)
	}
	q.Finish(pq, b.ID)
	if _, ok := q.Next(pq); ok {
		t.Fatalf("a ran before its retry was due")
	}
	if !q.RetryDue(pq, a.ID) {
		t.Fatalf("retry of a not taken")
	}
	if again, ok := q.Next(pq); !ok || again.ID != a.ID || again.Attempts != 1 {
		t.Fatalf("after its retry is due: %+v %v, want a again", again, ok)
	}
}

// A reload queued behind a failing converge drops it: the failing run,
// the graph's runs, what the discovery queued in main; other tasks stay.
func TestSupersedeDropsAFailingConverge(t *testing.T) {
	hookRun := messages.Task{Kind: messages.TaskModuleHook, Module: "x", Hook: "h"}
	t.Run("module run at the head", func(t *testing.T) {
		q := NewQueues()
		q.Append(converge(messages.NewModuleRun("a", "converge")), t0)
		q.Append(converge(messages.NewModuleRun("b", "converge")), t0)
		q.Append(hookRun, t0)
		q.Append(converge(messages.Task{Kind: messages.TaskConvergeDone}), t0)
		if _, ok := q.Supersede(); ok {
			t.Fatalf("superseded with no reload")
		}
		failHead(t, q, messages.MainQueue)
		q.Append(messages.NewReloadAll(messages.ActivationReloadAll, "enabled flags changed"), t0)
		s, ok := q.Supersede()
		if !ok || len(s.Dropped) != 3 || s.Group != 0 {
			t.Fatalf("superseded %v: %+v", ok, s)
		}
		if got := kinds(q, messages.MainQueue); got != "ReloadAllModules ModuleHookRun:x" {
			t.Fatalf("main = %s", got)
		}
		if head, ok := q.Next(messages.MainQueue); !ok || head.Kind != messages.TaskReloadAll ||
			!strings.Contains(head.Supersedes, "ModuleRun:a (attempt 1 failed: boom)") {
			t.Fatalf("head %+v %v", head, ok)
		}
	})
	t.Run("graph with a run in backoff", func(t *testing.T) {
		q := NewQueues()
		q.Append(converge(messages.Task{Kind: messages.TaskParallelModuleRun, Modules: []string{"a", "b"}}), t0)
		graph, _ := q.Next(messages.MainQueue)
		for i, m := range []string{"a", "b"} {
			run := messages.NewModuleRun(m, "converge")
			run.Queue, run.Group = messages.ParallelQueue(i), graph.ID
			q.Append(run, t0)
		}
		q.Append(messages.NewReloadAll(messages.ActivationReloadAll, "global section changed"), t0)
		if _, ok := q.Supersede(); ok {
			t.Fatalf("superseded a converge that is not failing")
		}
		failHead(t, q, messages.ParallelQueue(0))
		q.Next(messages.ParallelQueue(1)) // b runs: it ends on its own
		s, ok := q.Supersede()
		if !ok || s.Group != graph.ID || len(s.Dropped) != 2 {
			t.Fatalf("superseded %v: %+v", ok, s)
		}
		if !q.GroupSuperseded(graph.ID) || kinds(q, messages.ParallelQueue(0)) != "" || kinds(q, messages.ParallelQueue(1)) != "ModuleRun:b" {
			t.Fatalf("graph superseded %v, queues %q %q", q.GroupSuperseded(graph.ID), kinds(q, messages.ParallelQueue(0)), kinds(q, messages.ParallelQueue(1)))
		}
	})
}
