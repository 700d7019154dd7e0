package config_test

import (
	"log/slog"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/addon-actors/addon-operator/actors/config"
	"github.com/addon-actors/addon-operator/supervision/kubewatch"
	"github.com/addon-actors/addon-operator/test/actortest"
	"github.com/addon-actors/addon-operator/test/cluster"
)

// The ConfigMap watch dropped by a 6 s apiserver outage is logged once at
// WARN and counted in the gauge of watches down; a change made once the
// apiserver is ready again is reported within 5 s, the resume is logged at
// WARN with how long the watch was down, and the gauge is back to 0.
func TestWatchResumesWithin5sAfterOutage(t *testing.T) {
	ns := "outage"
	c, _, client := cluster.PrivateNamespace(t, ns)
	ctx := cluster.TestContext(t, 5*time.Minute)
	cms := client.CoreV1().ConfigMaps(ns)
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "addon-operator"}, Data: map[string]string{"global": "a: 1"}}
	if _, err := cms.Create(ctx, cm, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	logs, down := make(chan slog.Record, 256), &testGauge{}
	store := config.NewStore(client, ns, "addon-operator")
	store.WatchHealth(kubewatch.Options{Log: slog.New(actortest.LogHandler(logs)), Down: down})
	got := watch(t, store)
	if s := next(t, got); s.Data["global"] != "a: 1" {
		t.Fatalf("initial report %+v, want global a: 1", s)
	}

	ready := c.Outage(t, ctx, 6*time.Second, func() {
		actortest.ExpectLog(t, logs, slog.LevelWarn, "watch dropped", nil)
		if v := down.value(); v != 1 {
			t.Fatalf("watches down %v with the apiserver stopped, want 1", v)
		}
	})
	cm.Data["global"] = "a: 2"
	if _, err := cms.Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	select {
	case s := <-got:
		if s.Data["global"] != "a: 2" {
			t.Fatalf("first report after the outage %+v, want global a: 2", s)
		}
		t.Logf("change reported %v after the apiserver was ready", time.Since(ready))
	case <-time.After(time.Until(ready.Add(5 * time.Second))):
		t.Fatal("the change was not reported within 5 s of the apiserver being ready")
	}
	r := actortest.ExpectLog(t, logs, slog.LevelWarn, "watch resumed", nil)
	if d := attr(r, "down_seconds").Float64(); d < 5 || attr(r, "name").String() != "addon-operator" {
		t.Fatalf("resume record: down %vs, name %q; want at least 5 s, addon-operator", d, attr(r, "name"))
	}
	if v := down.value(); v != 0 {
		t.Fatalf("watches down %v after the resume, want 0", v)
	}
}

func attr(r slog.Record, key string) slog.Value {
	var v slog.Value
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == key {
			v = a.Value
		}
		return true
	})
	return v
}

type testGauge struct {
	mu sync.Mutex
	v  float64
}

func (g *testGauge) Add(d float64) { g.mu.Lock(); g.v += d; g.mu.Unlock() }

func (g *testGauge) value() float64 { g.mu.Lock(); defer g.mu.Unlock(); return g.v }
