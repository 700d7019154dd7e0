package kube_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"

	"github.com/addon-actors/addon-operator/actors/kube"
	"github.com/addon-actors/addon-operator/actors/queue"
	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/supervision"
	"github.com/addon-actors/addon-operator/test/actortest"
)

// hookRun is one run of the benchmark's hook: how many binding contexts
// it got, and when it ended.
type hookRun struct {
	contexts int
	end      time.Time
}

// hookOwner stands for the global actor: it runs each task the queue
// hands it as a real process (jq counting the binding contexts in the
// file, as a shell hook reads $BINDING_CONTEXT_PATH) and answers TaskDone.
type hookOwner struct {
	dir  string
	runs chan<- hookRun
	tb   testing.TB
	// queue gets the runs of the HookEvents the kube actor sends.
	queue *actor.PID
}

func (o *hookOwner) Receive(ctx actor.Context) {
	if ev, ok := ctx.Message().(messages.HookEvent); ok {
		enqueueEvent(ctx, o.queue, ev)
		return
	}
	msg, ok := ctx.Message().(messages.RunTask)
	if !ok {
		return
	}
	n, err := o.run(msg.Task)
	done := messages.TaskDone{ID: msg.Task.ID, Queue: msg.Task.Queue}
	if err != nil {
		o.tb.Errorf("hook run: %v", err)
		done.Err = err.Error()
	}
	o.runs <- hookRun{contexts: n, end: time.Now()}
	ctx.Respond(done)
}

func (o *hookOwner) run(t messages.Task) (int, error) {
	path := filepath.Join(o.dir, "context.json")
	if err := os.WriteFile(path, t.Context, 0o644); err != nil {
		return 0, err
	}
	out, err := exec.Command("jq", "length", path).Output()
	if err != nil {
		return 0, fmt.Errorf("jq length %s: %w", path, err)
	}
	return strconv.Atoi(strings.TrimSpace(string(out)))
}

// BenchmarkCompaction10kConfigMaps watches 10,000 ConfigMaps with a
// jqFilter (keepFullObjectsInMemory: false), then patches the labels of
// 1,000 of them as fast as 16 clients can, each patch changing the filter
// result. The runs go through the real queue actor, which compacts the
// waiting runs of the hook into one, to an owner that runs each as a jq
// process. It prints the hook runs per 1,000 events, the time from the
// first update to the end of the last run, and fails when an event was
// lost or the snapshot differs from the cluster.
func BenchmarkCompaction10kConfigMaps(b *testing.B) {
	const objects, updates = 10000, 1000
	ns := testKube.Namespace(b)
	cfg := testKube.Config(b)
	client := kubernetes.NewForConfigOrDie(cfg)
	createConfigMaps(b, client, ns, objects)

	runs := make(chan hookRun, 2*updates)
	published := board.New() // as in the operator: every snapshot is published
	kit := actortest.New(b)
	report, probe := kit.NewProbe(), kit.NewProbe()
	ho := &hookOwner{dir: b.TempDir(), runs: runs, tb: b}
	owner := kit.Spawn("owner", func() actor.Actor { return ho })
	q := kit.Spawn("queue", queue.New(queue.Options{Clock: supervision.RealClock{}, Policy: supervision.Exponential{},
		Resolve: func(string) *actor.PID { return owner }}))
	ho.queue = q // before any event: the kube actor starts next
	pid := kit.Spawn("kube", kube.New(onCluster(cfg, kube.Options{
		Owner: actortest.EveryOwner(owner), Report: report.PID, Board: published})))
	kit.Send(pid, messages.WatchKube{Owner: "global", Monitors: []messages.HookMonitor{namedMonitor(b, ns)}})
	actortest.Expect[messages.KubeSynced](report, 5*time.Minute)
	if sync := waitRun(b, runs); sync.contexts != 1 {
		b.Fatalf("Synchronization run with %d contexts, want 1", sync.contexts)
	}

	b.ResetTimer()
	var hookRuns int
	var elapsed, tail time.Duration
	for i := range b.N {
		start := time.Now()
		patchLabels(b, client, ns, objects/updates, updates, fmt.Sprintf("%d", i))
		patched := time.Now()
		n, seen, last := 0, 0, hookRun{}
		for seen < updates {
			last = waitRun(b, runs)
			n++
			seen += last.contexts
		}
		if seen != updates {
			b.Fatalf("runs carried %d events, want %d", seen, updates)
		}
		hookRuns += n
		elapsed += last.end.Sub(start)
		tail += last.end.Sub(patched)
	}
	b.StopTimer()
	probe.Send(pid, messages.GetSnapshots{Owner: "global", Hook: "h"})
	want := clusterLabels(b, client, ns)
	checkSnapshot(b, actortest.Expect[messages.HookSnapshots](probe, time.Minute), want)
	waitPublished(b, published, want)
	select {
	case extra := <-runs:
		b.Fatalf("a run with %d contexts after all %d events were run", extra.contexts, updates)
	default:
	}
	perRound := float64(hookRuns) / float64(b.N)
	b.ReportMetric(perRound, "hook-runs/1000-events")
	b.ReportMetric(float64(elapsed.Milliseconds())/float64(b.N), "ms-first-update-to-last-run")
	b.ReportMetric(float64(tail.Milliseconds())/float64(b.N), "ms-last-update-to-last-run")
	b.Logf("%d updates of %d ConfigMaps: %.1f hook runs after compaction (%.1f events per run); "+
		"%s from the first update to the end of the last run, %s of it after the last update returned",
		updates, objects, perRound, updates/perRound, elapsed/time.Duration(b.N), tail/time.Duration(b.N))
}

func waitRun(tb testing.TB, runs <-chan hookRun) hookRun {
	tb.Helper()
	select {
	case r := <-runs:
		return r
	case <-time.After(time.Minute):
		tb.Fatal("no hook run within a minute")
		return hookRun{}
	}
}

// patchLabels sets label rev on every step-th of the first n*step
// ConfigMaps, from 16 clients at once.
func patchLabels(tb testing.TB, client kubernetes.Interface, ns string, step, n int, rev string) {
	patch := []byte(fmt.Sprintf(`{"metadata":{"labels":{"rev":%q}}}`, rev))
	inParallel(tb, n, func(i int) error {
		name := fmt.Sprintf("cm-%05d", i*step)
		_, err := client.CoreV1().ConfigMaps(ns).Patch(context.Background(), name, types.MergePatchType, patch, metav1.PatchOptions{})
		return err
	})
}
