package operator_test

import (
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"go.uber.org/goleak"

	"github.com/addon-actors/addon-operator/actors/operator"
	"github.com/addon-actors/addon-operator/supervision"
	"github.com/addon-actors/addon-operator/test/actortest"
)

type lifecycle struct {
	Name  string
	Event string
}

type boom struct{}

type ping struct{}

type pong struct{ Starts int }

// child reports its lifecycle to a probe, panics on boom, and answers ping
// with the number of times an instance of it has started (its "durable
// input" here is the shared counter, which survives restarts).
type child struct {
	name   string
	report *actor.PID
	starts *int
}

func (c *child) Receive(ctx actor.Context) {
	switch ctx.Message().(type) {
	case *actor.Started:
		*c.starts++
		ctx.Send(c.report, lifecycle{c.name, "started"})
	case *actor.Stopping:
		ctx.Send(c.report, lifecycle{c.name, "stopping"})
	case boom:
		panic("boom in " + c.name)
	case ping:
		ctx.Respond(pong{Starts: *c.starts})
	}
}

func children(sys *operator.System, report *actor.PID, names ...string) []operator.Child {
	var out []operator.Child
	for _, n := range names {
		starts := new(int)
		out = append(out, operator.Child{Name: n, Props: sys.Props("test", func() actor.Actor {
			return &child{name: n, report: report, starts: starts}
		})})
	}
	return out
}

func expectLifecycle(t *testing.T, probe *actortest.Probe, want ...lifecycle) {
	t.Helper()
	for _, w := range want {
		if got := actortest.Expect[lifecycle](probe, 5*time.Second); got != w {
			t.Fatalf("got %+v, want %+v", got, w)
		}
	}
}

func TestChildrenStartInOrderAndStopInReverse(t *testing.T) {
	kit := newTreeKit(t)
	probe := kit.NewProbe()
	names := []string{"config", "queue", "global"}
	if _, err := kit.System.Start(children(kit.System, probe.PID, names...)); err != nil {
		t.Fatal(err)
	}
	// Children are spawned in order but handle Started concurrently.
	started := map[lifecycle]bool{}
	for range names {
		started[actortest.Expect[lifecycle](probe, 5*time.Second)] = true
	}
	for _, n := range names {
		if !started[lifecycle{n, "started"}] {
			t.Fatalf("%s did not start: %v", n, started)
		}
	}
	paths := map[string]bool{}
	for _, a := range kit.Inspector.Snapshot() {
		paths[a.Path] = true
	}
	for _, want := range []string{"operator", "operator/config", "operator/queue", "operator/global"} {
		if !paths[want] {
			t.Fatalf("inspector lacks %s: %v", want, paths)
		}
	}

	if err := kit.System.Stop(5 * time.Second); err != nil {
		t.Fatal(err)
	}
	expectLifecycle(t, probe, lifecycle{"global", "stopping"}, lifecycle{"queue", "stopping"}, lifecycle{"config", "stopping"})
	if left := kit.Inspector.Snapshot(); len(left) != 0 {
		t.Fatalf("actors left after stop: %+v", left)
	}
}

func TestPanickingChildIsRestartedCountedAndHandlesTheNextMessage(t *testing.T) {
	kit := newTreeKit(t)
	probe := kit.NewProbe()
	events := make(chan supervision.ActorRestarted, 1)
	sub := kit.System.Actors.EventStream.Subscribe(func(evt interface{}) {
		if e, ok := evt.(supervision.ActorRestarted); ok {
			events <- e
		}
	})
	defer kit.System.Actors.EventStream.Unsubscribe(sub)
	if _, err := kit.System.Start(children(kit.System, probe.PID, "module")); err != nil {
		t.Fatal(err)
	}
	expectLifecycle(t, probe, lifecycle{"module", "started"})
	pid := actor.NewPID(kit.System.Actors.Address(), "operator/module")

	kit.Send(pid, boom{})
	expectLifecycle(t, probe, lifecycle{"module", "started"})
	evt := <-events
	if evt.Actor != "operator/module" || evt.Reason != "boom in module" || evt.Restarts != 1 {
		t.Fatalf("restart event %+v", evt)
	}
	probe.Send(pid, ping{})
	if got := actortest.Expect[pong](probe, 5*time.Second); got.Starts != 2 {
		t.Fatalf("after restart: %+v, want 2 starts", got)
	}
	for _, a := range kit.Inspector.Snapshot() {
		if a.Path == "operator/module" && (a.Restarts != 1 || a.LastError != "panic: boom in module") {
			t.Fatalf("inspector after restart: %+v", a)
		}
	}
}

func TestChildThatKeepsPanickingIsStopped(t *testing.T) {
	kit := newTreeKit(t)
	probe := kit.NewProbe()
	if _, err := kit.System.Start(children(kit.System, probe.PID, "module")); err != nil {
		t.Fatal(err)
	}
	expectLifecycle(t, probe, lifecycle{"module", "started"})
	pid := actor.NewPID(kit.System.Actors.Address(), "operator/module")
	for range 10 {
		kit.Send(pid, boom{})
		expectLifecycle(t, probe, lifecycle{"module", "started"})
	}
	kit.Send(pid, boom{})
	expectLifecycle(t, probe, lifecycle{"module", "stopping"})
}

func TestStopLeavesNoGoroutineBehind(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	sys := operator.NewSystem(operator.Options{})
	report := sys.Actors.Root.Spawn(actor.PropsFromFunc(func(actor.Context) {}))
	var kids []operator.Child
	for _, n := range []string{"config", "queue", "global", "module-a", "module-b"} {
		starts := new(int)
		kids = append(kids, operator.Child{Name: n, Props: sys.Props("test", func() actor.Actor {
			return &child{name: n, report: report, starts: starts}
		})})
	}
	if _, err := sys.Start(kids); err != nil {
		t.Fatal(err)
	}
	if err := sys.Stop(5 * time.Second); err != nil {
		t.Fatal(err)
	}
	if err := sys.Actors.Root.StopFuture(report).Wait(); err != nil {
		t.Fatal(err)
	}
	if left := sys.Inspector.Snapshot(); len(left) != 0 {
		t.Fatalf("actors left: %+v", left)
	}
}
