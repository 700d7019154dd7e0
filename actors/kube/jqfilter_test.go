package kube_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"reflect"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"

	"github.com/addon-actors/addon-operator/actors/kube"
	"github.com/addon-actors/addon-operator/hook/bindings"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/test/actortest"

	"github.com/addon-actors/addon-operator/hookexec/hookconfig"
)

// monitorWith watches kind in ns under binding "cms" of hook "h" with a
// jqFilter.
func monitorWith(tb testing.TB, ns, kind, jqFilter string, keepFull bool) messages.HookMonitor {
	tb.Helper()
	filter, _ := json.Marshal(jqFilter)
	cfg, err := hookconfig.Parse([]byte(fmt.Sprintf(`{"configVersion":"v1","kubernetes":[{"name":"cms","apiVersion":"v1",`+
		`"kind":%q,"keepFullObjectsInMemory":%t,"jqFilter":%s,"namespace":{"nameSelector":{"matchNames":[%q]}}}]}`,
		kind, keepFull, filter, ns)), bindings.ScopeGlobal)
	if err != nil {
		tb.Fatal(err)
	}
	return messages.HookMonitor{Hook: "h", Version: cfg.Version, Binding: cfg.Kubernetes[0]}
}

// A jqFilter that fails on one object (tonumber of "abc") skips that
// object's events, each reported as an error log naming the hook, binding
// and object, and counted; the monitor keeps running, the other objects
// are in the Synchronization and run the hook, and the object runs it
// again once the filter can read it. Its deletion runs the hook only if
// the hook ever saw it. An object the filter could read and no longer can
// stays in the snapshot as last read: a transient bad value must not look
// like a deletion to a hook that reconciles its snapshot. Both where the filter runs: in the informer (slim
// objects) and in the actor (full objects kept).
func TestJqFilterErrorSkipsOnlyThatObject(t *testing.T) {
	for _, keepFull := range []bool{false, true} {
		t.Run(fmt.Sprintf("keepFullObjectsInMemory=%t", keepFull), func(t *testing.T) {
			ns := testKube.Namespace(t)
			client := testKube.Client(t)
			cms := client.CoreV1().ConfigMaps(ns)
			putN(t, cms, "good1", "1")
			putN(t, cms, "bad", "abc")

			logs, counted := make(chan slog.Record, 256), make(chan string, 256)
			kit, pid, queue, report := spawnKube(t, testKube.Config(t), kube.Options{Log: slog.New(actortest.LogHandler(logs)),
				Errors: func(owner, hook, binding string) { counted <- owner + "/" + hook + "/" + binding }})
			filter := `{name: .metadata.name, n: (.data.n | tonumber)}`
			kit.Send(pid, messages.WatchKube{Owner: "global", Monitors: []messages.HookMonitor{monitorWith(t, ns, "ConfigMap", filter, keepFull)}})

			jqFailed := func(name string) {
				t.Helper()
				actortest.ExpectLog(t, logs, slog.LevelError, "jqFilter failed; event skipped",
					map[string]string{"owner": "global", "hook": "h", "binding": "cms", "object": ns + "/" + name})
				expectCounted(t, counted, "global/h/cms")
			}
			jqFailed("bad") // while listing
			if synced := actortest.Expect[messages.KubeSynced](report, time.Minute); synced.Err != "" {
				t.Fatalf("KubeSynced %+v: a filter error is no watch error", synced)
			}
			sync := numbered(t, expectTask(queue, time.Minute))
			if want := []numberedEvent{{"Synchronization", "", "good1", 1}}; !reflect.DeepEqual(sync, want) {
				t.Fatalf("Synchronization %+v, want %+v", sync, want)
			}

			putN(t, cms, "good2", "2")
			expectNumbered(t, queue, numberedEvent{"Event", "Added", "good2", 2})
			putN(t, cms, "bad", "still bad")
			jqFailed("bad")
			putN(t, cms, "good1", "10") // the monitor still runs the hook
			expectNumbered(t, queue, numberedEvent{"Event", "Modified", "good1", 10})
			putN(t, cms, "bad", "3")
			expectNumbered(t, queue, numberedEvent{"Event", "Modified", "bad", 3})
			deleteCM(t, cms, "bad")
			expectNumbered(t, queue, numberedEvent{"Event", "Deleted", "bad", 3})

			putN(t, cms, "worse", "x") // never readable: its deletion runs nothing
			jqFailed("worse")
			deleteCM(t, cms, "worse")
			putN(t, cms, "good3", "3")
			expectNumbered(t, queue, numberedEvent{"Event", "Added", "good3", 3})
			putN(t, cms, "good2", "oops") // unreadable now: the snapshot keeps what it last read
			jqFailed("good2")
			queue.ExpectNoMessage(100 * time.Millisecond)

			probe := kit.NewProbe()
			probe.Send(pid, messages.GetSnapshots{Owner: "global", Hook: "h"})
			snap := actortest.Expect[messages.HookSnapshots](probe, time.Minute)
			got := map[string]float64{}
			for _, o := range snap.Snapshots["cms"] {
				var r struct {
					Name string  `json:"name"`
					N    float64 `json:"n"`
				}
				if err := json.Unmarshal(o.FilterResult, &r); err != nil {
					t.Fatalf("filter result %s: %v", o.FilterResult, err)
				}
				got[r.Name] = r.N
			}
			if want := map[string]float64{"good1": 10, "good2": 2, "good3": 3}; !reflect.DeepEqual(got, want) {
				t.Fatalf("snapshot %v, want %v", got, want)
			}
		})
	}
}

// Integers of an object (a Service's port) are numbers to the jqFilter:
// arithmetic and comparisons on them work, in the informer and in the
// actor.
func TestJqFilterOnIntegers(t *testing.T) {
	for _, keepFull := range []bool{false, true} {
		t.Run(fmt.Sprintf("keepFullObjectsInMemory=%t", keepFull), func(t *testing.T) {
			ns := testKube.Namespace(t)
			client := testKube.Client(t)
			svc := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: "web"},
				Spec: corev1.ServiceSpec{Ports: []corev1.ServicePort{{Name: "http", Port: 8080}}}}
			if _, err := client.CoreV1().Services(ns).Create(context.Background(), svc, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			kit, pid, queue, report := spawnKube(t, testKube.Config(t), kube.Options{})
			filter := `{next: (.spec.ports[0].port + 1), high: (.spec.ports[0].port > 1024), type: (.spec.ports[0].port | type)}`
			kit.Send(pid, messages.WatchKube{Owner: "global", Monitors: []messages.HookMonitor{monitorWith(t, ns, "Service", filter, keepFull)}})
			actortest.Expect[messages.KubeSynced](report, time.Minute)
			var ctxs []struct {
				Objects []struct {
					FilterResult json.RawMessage `json:"filterResult"`
				} `json:"objects"`
			}
			task := expectTask(queue, time.Minute).Tasks[0]
			if err := json.Unmarshal(task.Context, &ctxs); err != nil {
				t.Fatal(err)
			}
			if len(ctxs) != 1 || len(ctxs[0].Objects) != 1 {
				t.Fatalf("Synchronization %s, want the Service", task.Context)
			}
			if got, want := string(ctxs[0].Objects[0].FilterResult), `{"high":true,"next":8081,"type":"number"}`; got != want {
				t.Fatalf("filter result %s, want %s", got, want)
			}
		})
	}
}

// numberedEvent is what a test compares of a context of a filter
// {name, n}.
type numberedEvent struct {
	Type, WatchEvent, Name string
	N                      float64
}

// numbered decodes the contexts of queued runs; a Synchronization gives
// one entry per object.
func numbered(tb testing.TB, msg messages.Enqueue) []numberedEvent {
	tb.Helper()
	type result struct {
		Name string  `json:"name"`
		N    float64 `json:"n"`
	}
	var out []numberedEvent
	for _, task := range msg.Tasks {
		var ctxs []struct {
			Type         string `json:"type"`
			WatchEvent   string `json:"watchEvent"`
			FilterResult result `json:"filterResult"`
			Objects      []struct {
				FilterResult result `json:"filterResult"`
			} `json:"objects"`
		}
		if err := json.Unmarshal(task.Context, &ctxs); err != nil {
			tb.Fatalf("binding context %s: %v", task.Context, err)
		}
		for _, c := range ctxs {
			if c.Type == "Synchronization" {
				for _, o := range c.Objects {
					out = append(out, numberedEvent{c.Type, "", o.FilterResult.Name, o.FilterResult.N})
				}
				continue
			}
			out = append(out, numberedEvent{c.Type, c.WatchEvent, c.FilterResult.Name, c.FilterResult.N})
		}
	}
	return out
}

// expectNumbered fails unless the next queued run is exactly want.
func expectNumbered(tb testing.TB, queue *actortest.Probe, want numberedEvent) {
	tb.Helper()
	got := numbered(tb, expectTask(queue, time.Minute))
	if len(got) != 1 || got[0] != want {
		tb.Fatalf("run %+v, want %+v", got, want)
	}
}

// putN creates or updates ConfigMap name with data.n.
func putN(tb testing.TB, cms typedcorev1.ConfigMapInterface, name, n string) {
	tb.Helper()
	ctx := context.Background()
	cm, err := cms.Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		cm = &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name}, Data: map[string]string{"n": n}}
		if _, err := cms.Create(ctx, cm, metav1.CreateOptions{}); err != nil {
			tb.Fatal(err)
		}
		return
	}
	cm.Data["n"] = n
	if _, err := cms.Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
		tb.Fatal(err)
	}
}

func deleteCM(tb testing.TB, cms typedcorev1.ConfigMapInterface, name string) {
	tb.Helper()
	if err := cms.Delete(context.Background(), name, metav1.DeleteOptions{}); err != nil {
		tb.Fatal(err)
	}
}
