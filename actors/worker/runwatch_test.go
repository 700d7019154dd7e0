package worker_test

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/hookexec"
	"github.com/addon-actors/addon-operator/supervision"
	"github.com/addon-actors/addon-operator/test/actortest"
)

// TestWorkerWarnsAboutALongRun: a worker runs a real hook that blocks; on
// the fake clock it is reported at the threshold and at each doubling
// (1m, 2m, 4m) with its hook, module, binding and queue, the oldest-run
// gauge follows it, and once the hook exits the warnings stop and the
// queue reads 0.
func TestWorkerWarnsAboutALongRun(t *testing.T) {
	records := make(chan slog.Record, 16)
	k := actortest.New(t)
	watch := worker.NewRunWatch(k.Clock, slog.New(actortest.LogHandler(records)), time.Minute)
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	runner := hookexec.NewRunner(hookexec.Options{TmpDir: t.TempDir(), Environ: append(os.Environ(), "FIFO="+fifo)})
	t.Cleanup(runner.Close) // before its temp dir goes: it may be making run dirs ahead
	w := k.Spawn("worker", worker.New(context.Background(), runner, nil, watch))
	probe := k.NewProbe()
	root, _ := filepath.Abs("testdata")
	probe.Send(w, worker.HookJob{Module: "mod", Queue: "slow", Binding: "schedule", Request: hookexec.Request{
		Hook: hookexec.Hook{Name: "wait-fifo.sh", Path: filepath.Join(root, "wait-fifo.sh"), Root: root}}})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := k.Clock.WaitForTimers(ctx, 1); err != nil { // the run began: its warning is scheduled
		t.Fatal(err)
	}
	wantOldest(t, watch, "slow", 0)
	for _, step := range []struct{ advance, runningFor time.Duration }{
		{time.Minute, time.Minute}, {time.Minute, 2 * time.Minute}, {2 * time.Minute, 4 * time.Minute},
	} {
		k.Clock.Advance(step.advance - time.Second)
		expectNoRecord(t, records)
		k.Clock.Advance(time.Second)
		expectWarning(t, records, step.runningFor)
		wantOldest(t, watch, "slow", step.runningFor)
	}
	release(t, fifo)
	res := actortest.Expect[worker.HookResult](probe, 10*time.Second)
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	wantOldest(t, watch, "slow", 0)
	if pending := k.Clock.Pending(); len(pending) != 0 {
		t.Errorf("timers left after the run: %v", pending)
	}
	k.Clock.Advance(time.Hour)
	expectNoRecord(t, records)
}

// TestRunWatchOldestPerQueue: the gauge reads the oldest run of each queue,
// and a watch with no threshold never warns.
func TestRunWatchOldestPerQueue(t *testing.T) {
	clock := supervision.NewFakeClock(actortest.Epoch)
	records := make(chan slog.Record, 16)
	watch := worker.NewRunWatch(clock, slog.New(actortest.LogHandler(records)), 0)
	endA := watch.Begin(worker.RunLabels{Hook: "a", Queue: "main"})
	clock.Advance(30 * time.Second)
	endB := watch.Begin(worker.RunLabels{Hook: "b", Queue: "main"})
	endC := watch.Begin(worker.RunLabels{Hook: "c", Queue: "other"})
	clock.Advance(time.Hour)
	wantOldest(t, watch, "main", time.Hour+30*time.Second)
	wantOldest(t, watch, "other", time.Hour)
	endA()
	wantOldest(t, watch, "main", time.Hour)
	endB()
	endC()
	wantOldest(t, watch, "main", 0)
	wantOldest(t, watch, "other", 0)
	expectNoRecord(t, records)
	var nilWatch *worker.RunWatch
	nilWatch.Begin(worker.RunLabels{Hook: "x"})() // a nil watch follows nothing
}

func wantOldest(t *testing.T, w *worker.RunWatch, queue string, want time.Duration) {
	t.Helper()
	got, ok := w.Oldest()[queue]
	if !ok || got != want {
		t.Errorf("oldest run of queue %s = %s (known: %v), want %s", queue, got, ok, want)
	}
}

// expectWarning takes the next record: the long-run warning with the run's
// labels and running time. The fake clock's callbacks run inside Advance,
// so it is there already.
func expectWarning(t *testing.T, records <-chan slog.Record, runningFor time.Duration) {
	t.Helper()
	select {
	case r := <-records:
		attrs := map[string]any{}
		r.Attrs(func(a slog.Attr) bool { attrs[a.Key] = a.Value.Any(); return true })
		if r.Level != slog.LevelWarn || r.Message != worker.LongRunMessage {
			t.Fatalf("record %s %q, want WARN %q", r.Level, r.Message, worker.LongRunMessage)
		}
		want := map[string]any{"hook": "wait-fifo.sh", "module": "mod", "binding": "schedule", "queue": "slow", "running_for": runningFor.String()}
		for key, v := range want {
			if attrs[key] != v {
				t.Errorf("warning at %s: %s = %v, want %v", runningFor, key, attrs[key], v)
			}
		}
	default:
		t.Fatalf("no warning after %s", runningFor)
	}
}

func expectNoRecord(t *testing.T, records <-chan slog.Record) {
	t.Helper()
	select {
	case r := <-records:
		t.Fatalf("unexpected record %s %q", r.Level, r.Message)
	default:
	}
}

// release lets the hook blocked on the fifo exit.
func release(t *testing.T, fifo string) {
	t.Helper()
	f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString("go\n"); err != nil {
		t.Fatal(err)
	}
}
