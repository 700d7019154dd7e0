package inspect_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/addon-actors/addon-operator/supervision/inspect"
	"github.com/addon-actors/addon-operator/test/actortest"
)

type block struct{ release chan struct{} }

// hold, in the handler of b, reports blocked to report and waits for the
// release.
func (b block) hold(ctx actor.Context, report *actor.PID) {
	ctx.Send(report, blocked{})
	<-b.release
}

type noop struct{}

type ping struct{}

type pong struct{}

type blocked struct{}

// blocker holds its mailbox still while it handles block, and publishes a
// behaviour and summary.
type blocker struct {
	reg    *inspect.Registry
	report *actor.PID
	seen   int
}

func (b *blocker) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case block:
		msg.hold(ctx, b.report)
	case noop:
		b.seen++
		b.reg.Report(ctx.Self(), "draining", "seen "+strings.Repeat("|", b.seen%3))
	case ping:
		b.reg.ReportError(ctx.Self(), errors.New("hook x failed"))
		ctx.Respond(pong{})
	}
}

// blockIn has the actor pid, which reports blocked to probe, block in its
// handler of block, and returns the channel whose close releases it.
func blockIn(kit *actortest.Kit, probe *actortest.Probe, pid *actor.PID) chan struct{} {
	release := make(chan struct{})
	kit.Send(pid, block{release: release})
	actortest.Expect[blocked](probe, 5*time.Second)
	return release
}

func find(t *testing.T, reg *inspect.Registry, path string) inspect.ActorInfo {
	t.Helper()
	for _, a := range reg.Snapshot() {
		if a.Path == path {
			return a
		}
	}
	t.Fatalf("actor %s not in the inspector", path)
	return inspect.ActorInfo{}
}

func TestBlockedActorShowsItsMailboxAndCurrentMessage(t *testing.T) {
	kit := actortest.New(t)
	probe := kit.NewProbe()
	pid := kit.Spawn("blocker", func() actor.Actor { return &blocker{reg: kit.Inspector, report: probe.PID} })

	release := blockIn(kit, probe, pid)
	const n = 25
	for range n {
		kit.Send(pid, noop{})
	}
	kit.Clock.Advance(7 * time.Second)

	a := find(t, kit.Inspector, pid.Id)
	if a.MailboxLength != n || a.HighWater != n {
		t.Fatalf("blocked: mailbox %d high-water %d, want %d", a.MailboxLength, a.HighWater, n)
	}
	if a.Kind != "blocker" || !strings.HasSuffix(a.Current, "inspect_test.block") || a.CurrentFor != 7*time.Second {
		t.Fatalf("blocked: kind %q current %q for %s", a.Kind, a.Current, a.CurrentFor)
	}

	close(release)
	probe.Send(pid, ping{})
	actortest.Expect[pong](probe, 5*time.Second)
	a = find(t, kit.Inspector, pid.Id)
	if a.MailboxLength != 0 || a.HighWater < n || a.Processed < n+1 {
		t.Fatalf("drained: mailbox %d high-water %d processed %d", a.MailboxLength, a.HighWater, a.Processed)
	}
	if a.Behaviour != "draining" || a.LastError != "hook x failed" {
		t.Fatalf("drained: behaviour %q last error %q", a.Behaviour, a.LastError)
	}
}

func TestStoppedActorLeavesTheInspector(t *testing.T) {
	kit := actortest.New(t)
	pid := kit.Spawn("blocker", func() actor.Actor { return &blocker{reg: kit.Inspector} })
	find(t, kit.Inspector, pid.Id)
	if err := kit.Root.StopFuture(pid).Wait(); err != nil {
		t.Fatal(err)
	}
	for _, a := range kit.Inspector.Snapshot() {
		if a.Path == pid.Id {
			t.Fatalf("stopped actor %s still listed: %+v", pid.Id, a)
		}
	}
}

func TestCollectorExportsMailboxLength(t *testing.T) {
	kit := actortest.New(t)
	probe := kit.NewProbe()
	pid := kit.Spawn("blocker", func() actor.Actor { return &blocker{reg: kit.Inspector, report: probe.PID} })
	defer close(blockIn(kit, probe, pid))
	kit.Send(pid, noop{})
	kit.Send(pid, noop{})

	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(inspect.NewCollector(kit.Inspector, "addon_operator_"))
	want := `
# HELP addon_operator_actor_mailbox_length Messages waiting in the actor's mailbox.
# TYPE addon_operator_actor_mailbox_length gauge
addon_operator_actor_mailbox_length{actor="` + pid.Id + `"} 2
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "addon_operator_actor_mailbox_length"); err != nil {
		t.Fatal(err)
	}
}
