package kube_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/addon-actors/addon-operator/actors/kube"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/test/actortest"
)

// Without full objects (keepFullObjectsInMemory: false), Synchronization
// and Event contexts carry only filter results (UPSTREAM §8.2: the object
// is omitted everywhere), never the operator's own fields.
func TestSlimObjects(t *testing.T) {
	ns := testKube.Namespace(t)
	client := testKube.Client(t)
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "a", Labels: map[string]string{"x": "1"}}}
	if _, err := client.CoreV1().ConfigMaps(ns).Create(context.Background(), cm, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	kit, pid, queue, report := spawnKube(t, testKube.Config(t), kube.Options{})
	kit.Send(pid, messages.WatchKube{Owner: "global", Monitors: []messages.HookMonitor{monitorFor(t, ns, false)}})
	actortest.Expect[messages.KubeSynced](report, time.Minute)
	sync := expectTask(queue, time.Minute).Tasks[0]
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
	event := expectTask(queue, time.Minute).Tasks[0]
	if string(event.Context) != `[{"binding":"cms","type":"Event","watchEvent":"Modified","filterResult":{"x":"2"}}]` {
		t.Fatalf("event context %s", event.Context)
	}
	if event.Kind != messages.TaskGlobalHook || event.Hook != "h" || event.MergeKey == "" || !event.Compact {
		t.Fatalf("event task %+v", event)
	}
}

// BenchmarkMonitorSync is the time from WatchKube to KubeSynced for one
// binding (a module's run waits for its monitors' Synchronization): a wait
// that polls (client-go's WaitForCacheSync checks every 100 ms) shows as
// 100 ms or more.
func BenchmarkMonitorSync(b *testing.B) {
	ns := testKube.Namespace(b)
	kit := actortest.New(b)
	queue, report := kit.NewProbe(), kit.NewProbe()
	pid := kit.Spawn("kube", kube.New(onCluster(testKube.Config(b), kube.Options{Owner: actortest.EveryOwner(queue.PID), Report: report.PID})))
	i := 0
	for b.Loop() {
		owner := fmt.Sprintf("module-%d", i)
		i++
		kit.Send(pid, messages.WatchKube{Owner: owner, Monitors: []messages.HookMonitor{monitorFor(b, ns, false)}})
		if synced := actortest.Expect[messages.KubeSynced](report, time.Minute); synced.Owner != owner || synced.Err != "" {
			b.Fatalf("synced %+v, want %s", synced, owner)
		}
	}
}
