package queue_test

import (
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/supervision"
)

func event(name, q string) messages.Task {
	t := inQueue(hook(name), q)
	t.Event = true
	return t
}

// While discovery fails the runs of hook events (schedule ticks,
// Kubernetes events) are held back in every queue, and other tasks run;
// once released, the held runs are queued in the order they came (nothing
// is lost: LIFECYCLE.md, "Modules discovery"), and later events run at
// once. (The schedule and kube actors held their runs themselves before.)
func TestEventRunsAreHeldWhileDiscoveryFails(t *testing.T) {
	e := newEnv(t, supervision.Fixed{Wait: time.Second})
	e.kit.Send(e.queue, messages.HoldEvents{Hold: true})
	e.enqueue(event("tick1", "main"), event("pod", "named"), inQueue(hook("reload"), "main"), event("tick2", "main"))
	e.done(e.expectRun(t, "reload"), "")
	e.owner.ExpectNoMessage(50 * time.Millisecond)
	for _, q := range e.snapshot().Queues {
		if len(q.Tasks) != 0 {
			t.Fatalf("held runs are in queue %s: %+v", q.Name, q.Tasks)
		}
	}

	e.kit.Send(e.queue, messages.HoldEvents{Hold: false})
	got := e.expectRuns(t, "tick1", "pod") // main's first held run and the named queue's
	e.done(got["tick1"], "")
	e.done(e.expectRun(t, "tick2"), "")
	e.done(got["pod"], "")
	e.kit.Send(e.queue, messages.HoldEvents{Hold: false}) // nothing held: nothing queued
	e.owner.ExpectNoMessage(20 * time.Millisecond)
	e.enqueue(event("tick3", "main"))
	e.expectRun(t, "tick3")
}
