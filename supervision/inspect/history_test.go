package inspect_test

import (
	"errors"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/supervision/inspect"
	"github.com/addon-actors/addon-operator/test/actortest"
)

type task struct{ name string }

func (t task) Summary() string { return "task " + t.name }

type failing struct{}

type boom struct{}

// recorderActor fails on failing (a reported error), panics on boom, and
// blocks on block until released.
type recorderActor struct {
	reg    *inspect.Registry
	report *actor.PID
}

func (a *recorderActor) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case block:
		msg.hold(ctx, a.report)
	case failing:
		a.reg.ReportError(ctx.Self(), errors.New("hook x failed:\nexit status 1"))
	case boom:
		panic("boom")
	case ping:
		ctx.Respond(pong{})
	}
}

func history(t *testing.T, reg *inspect.Registry, path string) []inspect.Entry {
	t.Helper()
	h, ok := reg.History(path)
	if !ok {
		t.Fatalf("no history for %s", path)
	}
	return h
}

func TestHistoryRecordsTypeSummaryDurationAndOutcome(t *testing.T) {
	kit := actortest.New(t)
	probe := kit.NewProbe()
	pid := kit.Spawn("recorder", func() actor.Actor { return &recorderActor{reg: kit.Inspector, report: probe.PID} })

	release := blockIn(kit, probe, pid)
	kit.Clock.Advance(3 * time.Second)
	close(release)
	kit.Send(pid, task{name: "foo"})
	kit.Send(pid, failing{})
	probe.Send(pid, ping{})
	actortest.Expect[pong](probe, 5*time.Second)
	// A message's entry is written once its handler returns, after the
	// reply went out: the second ping's reply says the first's is in.
	probe.Send(pid, ping{})
	actortest.Expect[pong](probe, 5*time.Second)

	all := history(t, kit.Inspector, pid.Id)
	first := slices.IndexFunc(all, func(e inspect.Entry) bool { return strings.HasSuffix(e.Type, "inspect_test.block") })
	if first < 0 || len(all) < first+4 {
		t.Fatalf("history %+v: want block, task, failing, ping", all)
	}
	h := all[first : first+4]
	if !strings.HasSuffix(h[0].Type, "inspect_test.block") || h[0].Duration != 3*time.Second ||
		!h[0].At.Equal(actortest.Epoch) || h[0].Outcome != "ok" || h[0].Summary != h[0].Type {
		t.Errorf("block entry: %+v", h[0])
	}
	if h[1].Summary != "task foo" || h[1].Outcome != "ok" || !h[1].At.Equal(actortest.Epoch.Add(3*time.Second)) {
		t.Errorf("task entry: %+v", h[1])
	}
	if h[2].Outcome != "error" || h[2].Error != "hook x failed: exit status 1" {
		t.Errorf("failing entry: %+v", h[2])
	}
	if h[3].Outcome != "ok" || h[3].Error != "" || !strings.HasSuffix(h[3].Type, "inspect_test.ping") {
		t.Errorf("ping entry after the error: %+v", h[3])
	}
	if _, ok := kit.Inspector.History("no/such/actor"); ok {
		t.Error("History of an unknown actor: found")
	}
}

func TestPanicLogShowsTheLast16Handled(t *testing.T) {
	records := make(chan slog.Record, 64)
	kit := actortest.New(t, actortest.WithLogger(slog.New(actortest.LogHandler(records))))
	probe := kit.NewProbe()
	pid := kit.Spawn("recorder", func() actor.Actor { return &recorderActor{reg: kit.Inspector, report: probe.PID} })
	for i := range 20 {
		kit.Send(pid, task{name: string(rune('a' + i))})
	}
	kit.Send(pid, boom{})

	rec := actortest.ExpectLog(t, records, slog.LevelError, "actor panicked", map[string]string{"actor": pid.Id})
	var lines []string
	rec.Attrs(func(a slog.Attr) bool {
		if a.Key == "history" {
			lines, _ = a.Value.Any().([]string)
		}
		return true
	})
	if len(lines) != 16 {
		t.Fatalf("history in the panic record: %d lines, want 16: %q", len(lines), lines)
	}
	if !strings.Contains(lines[0], "task f") || !strings.Contains(lines[14], "task t") {
		t.Errorf("history does not run from task f to task t: %q", lines)
	}
	if last := lines[15]; !strings.Contains(last, " panic ") || !strings.HasSuffix(last, " inspect_test.boom: panic: boom") {
		t.Errorf("last line is not the panic: %q", last)
	}
	// The ring outlives the restart: the new incarnation appends to it. An
	// entry is written once its handler returns, after the reply: the
	// second ping's reply says the first's is in.
	probe.Send(pid, ping{})
	actortest.Expect[pong](probe, 5*time.Second)
	probe.Send(pid, ping{})
	actortest.Expect[pong](probe, 5*time.Second)
	h := history(t, kit.Inspector, pid.Id)
	if n := len(h); n < 22 || h[20].Outcome != "panic" || h[21].Outcome != "ok" || !strings.HasSuffix(h[21].Type, "inspect_test.ping") {
		t.Fatalf("history after the restart: %d entries, want the panic 21st and the first ping 22nd: %+v", n, h[min(20, n):])
	}
}
