package kube_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/addon-actors/addon-operator/actors/kube"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/test/actortest"
)

// Without full objects, Synchronization carries only filter results, and an
// Event's object carries none of the operator's own fields.
func TestSlimObjects(t *testing.T) {
	ns := testKube.Namespace(t)
	client := kubernetes.NewForConfigOrDie(testKube.Config(t))
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "a", Labels: map[string]string{"x": "1"}}}
	if _, err := client.CoreV1().ConfigMaps(ns).Create(context.Background(), cm, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	kit := actortest.New(t)
	queue, report := kit.NewProbe(), kit.NewProbe()
	pid := kit.Spawn("kube", kube.New(onCluster(testKube.Config(t), kube.Options{
		Queue: queue.PID, Report: report.PID})))
	kit.Send(pid, messages.WatchKube{Owner: "global", Monitors: []messages.HookMonitor{monitorFor(t, ns, false)}})
	actortest.Expect[messages.KubeSynced](report, time.Minute)
	sync := actortest.Expect[messages.Enqueue](queue, time.Minute).Tasks[0]
	var contexts []map[string]any
	if err := json.Unmarshal(sync.Context, &contexts); err != nil {
		t.Fatal(err)
	}
	objects := contexts[0]["objects"].([]any)
	if first := objects[0].(map[string]any); first["object"] != nil || first["filterResult"].(map[string]any)["x"] != "1" {
		t.Fatalf("slim Synchronization object %v", first)
	}
	cm.Labels["x"] = "2"
	if _, err := client.CoreV1().ConfigMaps(ns).Update(context.Background(), cm, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	event := actortest.Expect[messages.Enqueue](queue, time.Minute).Tasks[0]
	if strings.Contains(string(event.Context), "__addonOperator") || !strings.Contains(string(event.Context), `"name":"a"`) {
		t.Fatalf("event context %s", event.Context)
	}
	if event.Kind != messages.TaskGlobalHook || event.Hook != "h" || event.MergeKey == "" || !event.Compact {
		t.Fatalf("event task %+v", event)
	}
}

// A monitor reports its sync as soon as its first list is delivered: a
// module's run waits for its monitors' Synchronization. A wait that polls
// (client-go's WaitForCacheSync checks every 100 ms) makes every attempt
// take 100 ms or more; the fastest of a few attempts must not.
func TestMonitorSyncIsNotPolled(t *testing.T) {
	ns := testKube.Namespace(t)
	client := kubernetes.NewForConfigOrDie(testKube.Config(t))
	mapper := restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(client.Discovery()))
	kit := actortest.New(t)
	queue, report := kit.NewProbe(), kit.NewProbe()
	pid := kit.Spawn("kube", kube.New(kube.Options{Client: dynamic.NewForConfigOrDie(testKube.Config(t)), Mapper: mapper,
		Queue: queue.PID, Report: report.PID}))
	fastest := time.Hour
	for i := range 5 {
		owner := "module-" + string(rune('a'+i))
		start := time.Now()
		kit.Send(pid, messages.WatchKube{Owner: owner, Monitors: []messages.HookMonitor{monitorFor(t, ns, false)}})
		if synced := actortest.Expect[messages.KubeSynced](report, time.Minute); synced.Owner != owner || synced.Err != "" {
			t.Fatalf("synced %+v, want %s", synced, owner)
		}
		fastest = min(fastest, time.Since(start))
	}
	if fastest >= 90*time.Millisecond {
		t.Errorf("fastest of 5 monitors synced after %s: the sync is polled", fastest)
	}
}
