package kube_test

import (
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"

	"github.com/addon-actors/addon-operator/actors/kube"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/test/actortest"
	"github.com/addon-actors/addon-operator/test/cluster"
)

// resumeWithin is how soon after the apiserver answers again a change must
// reach the queue.
const resumeWithin = 5 * time.Second

// A monitor's watch dropped by an apiserver outage is logged once at WARN,
// counted in the gauge of watches down, and resumes within 5 s of the
// apiserver being ready: an object created then runs the hook in time, the
// resume is logged at WARN with how long the watch was down, and the gauge
// is back to 0.
func TestMonitorResumesWithin5sAfterOutage(t *testing.T) {
	ctx := cluster.TestContext(t, 5*time.Minute)
	logs, down := make(chan slog.Record, 1024), &testGauge{}
	f := watchOnPrivateCluster(t, kube.Options{Log: slog.New(actortest.LogHandler(logs)), WatchesDown: down},
		func(cms typedcorev1.ConfigMapInterface) { createLabelled(t, cms, "a") })
	c, cms, ns, queue := f.cluster, f.cms, f.ns, f.queue

	want := map[string]string{"owner": "global", "hook": "h", "binding": "cms", "resource": "configmaps", "namespace": ns}
	ready := c.Outage(t, ctx, outage, func() {
		actortest.ExpectLog(t, logs, slog.LevelWarn, "watch dropped", want)
		if v := down.value(); v != 1 {
			t.Fatalf("kube_watches_down %v with the apiserver stopped, want 1", v)
		}
	})
	createLabelled(t, cms, "d")
	got := contextsOf(t, expectTask(queue, time.Until(ready.Add(resumeWithin))))
	if len(got) != 1 || got[0].event() != (event{"Added", "d"}) {
		t.Fatalf("first run after the outage %+v, want Added d", got)
	}
	t.Logf("event queued %v after the apiserver was ready", time.Since(ready))
	expectDownFor(t, logs, want, outage-time.Second)
	if v, highest := down.value(), down.highest(); v != 0 || highest != 1 {
		t.Fatalf("kube_watches_down %v after the resume (highest %v), want 0 (highest 1)", v, highest)
	}
}

// outageFixture is a kube actor watching ConfigMaps (namedMonitor) in
// namespace "outage" of a private cluster the test may stop.
type outageFixture struct {
	cluster *cluster.Cluster
	cms     typedcorev1.ConfigMapInterface
	ns      string
	queue   *actortest.Probe
}

// watchOnPrivateCluster starts the fixture: before runs on the namespace's
// ConfigMaps ahead of the watch, whose Synchronization it waits for.
func watchOnPrivateCluster(tb testing.TB, opts kube.Options, before func(typedcorev1.ConfigMapInterface)) outageFixture {
	tb.Helper()
	ns := "outage"
	c, cfg, client := cluster.PrivateNamespace(tb, ns)
	f := outageFixture{cluster: c, cms: client.CoreV1().ConfigMaps(ns), ns: ns}
	before(f.cms)
	kit := actortest.New(tb)
	report := kit.NewProbe()
	f.queue = kit.NewProbe()
	opts.Owner, opts.Report = actortest.EveryOwner(f.queue.PID), report.PID
	pid := kit.Spawn("kube", kube.New(onCluster(cfg, opts)))
	kit.Send(pid, messages.WatchKube{Owner: "global", Monitors: []messages.HookMonitor{namedMonitor(tb, ns)}})
	actortest.Expect[messages.KubeSynced](report, time.Minute)
	expectTask(f.queue, time.Minute)
	return f
}

// expectDownFor expects the WARN record of a resumed watch, with want's
// attributes and a down duration of at least least.
func expectDownFor(t *testing.T, logs <-chan slog.Record, want map[string]string, least time.Duration) {
	t.Helper()
	deadline := time.After(time.Minute)
	for {
		select {
		case r := <-logs:
			if r.Level != slog.LevelWarn || !strings.HasPrefix(r.Message, "watch resumed") {
				continue
			}
			got := map[string]slog.Value{}
			r.Attrs(func(a slog.Attr) bool { got[a.Key] = a.Value; return true })
			for k, v := range want {
				if got[k].String() != v {
					t.Fatalf("%q: %s=%q, want %q", r.Message, k, got[k], v)
				}
			}
			if d := time.Duration(got["down_seconds"].Float64() * float64(time.Second)); d < least {
				t.Fatalf("%q: down %v (%s), want at least %v", r.Message, d, got["down"], least)
			}
			t.Logf("%s %s down=%s", r.Level, r.Message, got["down"])
			return
		case <-deadline:
			t.Fatal("no WARN \"watch resumed\" within a minute")
		}
	}
}

// testGauge is a kubewatch.Gauge the test reads: its value and the
// highest it reached.
type testGauge struct {
	mu      sync.Mutex
	v, high float64
}

func (g *testGauge) Add(d float64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.v += d
	g.high = max(g.high, g.v)
}

func (g *testGauge) value() float64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.v
}

func (g *testGauge) highest() float64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.high
}
