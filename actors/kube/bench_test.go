package kube_test

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/addon-actors/addon-operator/actors/kube"
	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/hook/bindings"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/test/actortest"
	"github.com/addon-actors/addon-operator/test/heap"

	"github.com/addon-actors/addon-operator/hookexec/hookconfig"
)

// monitorFor parses a hook configuration with one kubernetes binding.
func monitorFor(tb testing.TB, ns string, keepFull bool) messages.HookMonitor {
	cfg, err := hookconfig.Parse([]byte(fmt.Sprintf(`{"configVersion":"v1","kubernetes":[{"name":"cms","apiVersion":"v1",`+
		`"kind":"ConfigMap","keepFullObjectsInMemory":%t,"jqFilter":".metadata.labels",`+
		`"namespace":{"nameSelector":{"matchNames":["%s"]}}}]}`, keepFull, ns)), bindings.ScopeGlobal)
	if err != nil {
		tb.Fatal(err)
	}
	return messages.HookMonitor{Hook: "h", Version: cfg.Version, Binding: cfg.Kubernetes[0]}
}

func createConfigMaps(tb testing.TB, client kubernetes.Interface, ns string, n int) {
	data := map[string]string{"payload": strings.Repeat("x", 1024)}
	inParallel(tb, n, func(i int) error {
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("cm-%05d", i),
			Labels: map[string]string{"n": fmt.Sprint(i)}}, Data: data}
		_, err := client.CoreV1().ConfigMaps(ns).Create(context.Background(), cm, metav1.CreateOptions{})
		return err
	})
}

// inParallel calls do(i) for every i below n from 16 clients at once.
func inParallel(tb testing.TB, n int, do func(i int) error) {
	var wg sync.WaitGroup
	work := make(chan int)
	for range 16 {
		wg.Go(func() {
			for i := range work {
				if err := do(i); err != nil {
					tb.Error(err)
				}
			}
		})
	}
	for i := range n {
		work <- i
	}
	close(work)
	wg.Wait()
}

// BenchmarkMonitor10kConfigMaps watches 10,000 ConfigMaps (1 KB of data
// each) with a jqFilter, with and without keepFullObjectsInMemory, and
// prints the heap per object and the latency from an update to the queued
// run (target: at most 1.5 KB per object without full objects, 10 ms).
func BenchmarkMonitor10kConfigMaps(b *testing.B) {
	const n = 10000
	ns := testKube.Namespace(b)
	client := kubernetes.NewForConfigOrDie(testKube.Config(b))
	start := time.Now()
	createConfigMaps(b, client, ns, n)
	b.Logf("created %d ConfigMaps in %s", n, time.Since(start))
	for _, keep := range []bool{false, true} {
		b.Run(fmt.Sprintf("keepFullObjectsInMemory=%t", keep), func(b *testing.B) {
			measureMonitor(b, client, ns, n, keep)
		})
	}
}

func measureMonitor(b *testing.B, client kubernetes.Interface, ns string, n int, keep bool) {
	kit := actortest.New(b)
	queue, report := kit.NewProbe(), kit.NewProbe()
	// A board, as in the operator: every snapshot is published.
	opts := onCluster(testKube.Config(b), kube.Options{Owner: actortest.EveryOwner(queue.PID), Report: report.PID, Board: board.New()})
	before := heap.Live()
	pid := kit.Spawn("kube", kube.New(opts))
	start := time.Now()
	kit.Send(pid, messages.WatchKube{Owner: "global", Monitors: []messages.HookMonitor{monitorFor(b, ns, keep)}})
	actortest.Expect[messages.KubeSynced](report, 5*time.Minute)
	synced := time.Since(start)
	expectTask(queue, time.Minute) // the Synchronization run
	perObject := float64(int64(heap.Live())-int64(before)) / float64(n)
	b.ReportMetric(perObject, "heap-bytes/object")
	b.Logf("synced %d objects in %s; heap %.0f bytes per object", n, synced, perObject)
	latencies := make([]time.Duration, 0, 50)
	for i := range 50 {
		name := fmt.Sprintf("cm-%05d", i)
		cm, err := client.CoreV1().ConfigMaps(ns).Get(context.Background(), name, metav1.GetOptions{})
		if err != nil {
			b.Fatal(err)
		}
		cm.Labels["changed"] = fmt.Sprint(keep)
		t0 := time.Now()
		if _, err := client.CoreV1().ConfigMaps(ns).Update(context.Background(), cm, metav1.UpdateOptions{}); err != nil {
			b.Fatal(err)
		}
		expectTask(queue, time.Minute)
		latencies = append(latencies, time.Since(t0))
	}
	sort.Slice(latencies, func(i, j int) bool { return latencies[i] < latencies[j] })
	b.ReportMetric(float64(latencies[len(latencies)/2].Microseconds())/1000, "ms-event-to-queue-p50")
	b.Logf("update to queued run: median %s", latencies[len(latencies)/2])
}
