package kube_test

import (
	"context"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/actors/kube"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/test/actortest"
)

// A kube actor that panics is restarted by the guardian with every
// owner's monitors started again, since no owner sends them twice: they
// list again and queue a fresh Synchronization (to the queue: the module
// run that asked for the first one has it), and events run the hook.
func TestMonitorsSurviveAnActorRestart(t *testing.T) {
	ns := testKube.Namespace(t)
	client := testKube.Client(t)
	cms := client.CoreV1().ConfigMaps(ns)
	putN(t, cms, "a", "1")

	logs := make(chan slog.Record, 256)
	trap := &panicOn{LogHandler: logs, message: "jqFilter failed"}
	kit, pid, queue, report := spawnKube(t, testKube.Config(t), kube.Options{Log: slog.New(trap)})
	firstRun := kit.NewProbe()
	owner := messages.ModuleOwner("m")
	kit.Send(pid, messages.WatchKube{Owner: owner, Module: "m", SyncTo: firstRun.PID,
		Monitors: []messages.HookMonitor{monitorWith(t, ns, "ConfigMap", `{name: .metadata.name, n: (.data.n | tonumber)}`, false)}})
	if runs := actortest.Expect[messages.KubeSyncRuns](firstRun, time.Minute); len(runs.Runs) != 1 || runs.Owner != owner {
		t.Fatalf("KubeSyncRuns %+v", runs)
	}
	actortest.Expect[messages.KubeSynced](report, time.Minute)

	trap.armed.Store(true)
	putN(t, cms, "bad", "x") // its filter error is logged: the handler panics
	actortest.ExpectLog(t, logs, slog.LevelInfo, "monitors started again after a restart", map[string]string{"owners": "1"})
	actortest.Expect[messages.KubeSynced](report, time.Minute)
	sync := numbered(t, expectTask(queue, time.Minute))
	if want := []numberedEvent{{"Synchronization", "", "a", 1}}; len(sync) != 1 || sync[0] != want[0] {
		t.Fatalf("Synchronization after the restart %+v, want %+v", sync, want)
	}
	putN(t, cms, "b", "2")
	expectNumbered(t, queue, numberedEvent{"Event", "Added", "b", 2})
	firstRun.ExpectNoMessage(50 * time.Millisecond)
}

// panicOn records like actortest.LogHandler and, once armed, panics the first
// time it logs a message starting with message.
type panicOn struct {
	actortest.LogHandler
	message string
	armed   atomic.Bool
}

func (h *panicOn) Handle(ctx context.Context, r slog.Record) error {
	if len(r.Message) >= len(h.message) && r.Message[:len(h.message)] == h.message && h.armed.CompareAndSwap(true, false) {
		panic("test: log handler panics once")
	}
	return h.LogHandler.Handle(ctx, r)
}
