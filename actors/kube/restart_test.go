package kube_test

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"

	"github.com/addon-actors/addon-operator/actors/kube"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/test/actortest"
	"github.com/addon-actors/addon-operator/test/cluster"
)

// A monitor whose apiserver restarts reconnects (by a new watch or a
// relist): changes made after the restart run the hook once each, objects
// that did not change run nothing, and the snapshot equals the cluster.
// The cluster is private: restarting the shared one would disturb the
// other tests.
func TestMonitorSurvivesAPIServerRestart(t *testing.T) {
	ns := "restart"
	c, cfg, client := cluster.PrivateNamespace(t, ns)
	ctx := cluster.TestContext(t, 5*time.Minute)
	cms := client.CoreV1().ConfigMaps(ns)
	for _, name := range []string{"a", "b", "c", "e"} {
		createLabelled(t, cms, name)
	}

	kit, pid, queue, report := spawnKube(t, cfg, kube.Options{})
	kit.Send(pid, messages.WatchKube{Owner: "global", Monitors: []messages.HookMonitor{namedMonitor(t, ns)}})
	actortest.Expect[messages.KubeSynced](report, time.Minute)
	if sync := contextsOf(t, expectTask(queue, time.Minute)); len(sync) != 1 || len(sync[0].Objects) != 4 {
		t.Fatalf("Synchronization %+v, want one context with 4 objects", sync)
	}

	relabel(t, cms, "a", "2")
	expectEvents(t, queue, event{"Modified", "a"})
	rewriteData(t, cms, "b") // its filter result stays: no run
	relabel(t, cms, "e", "2")
	expectEvents(t, queue, event{"Modified", "e"})

	if err := c.RestartAPIServer(ctx); err != nil {
		t.Fatalf("restart apiserver: %v", err)
	}
	// The informer reconnects after the restart; whatever its relist queues
	// comes before or with d's run, so an unchanged object's run fails here.
	createLabelled(t, cms, "d")
	expectEvents(t, queue, event{"Added", "d"})
	relabel(t, cms, "a", "3")
	if err := cms.Delete(ctx, "c", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	rewriteData(t, cms, "b")
	relabel(t, cms, "e", "3")
	expectEvents(t, queue, event{"Modified", "a"}, event{"Deleted", "c"}, event{"Modified", "e"})

	probe := kit.NewProbe()
	probe.Send(pid, messages.GetSnapshots{Owner: "global", Hook: "h"})
	checkSnapshot(t, actortest.Expect[messages.HookSnapshots](probe, time.Minute), clusterLabels(t, client, ns))
}

func createLabelled(t *testing.T, cms typedcorev1.ConfigMapInterface, name string) {
	t.Helper()
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"v": "1"}},
		Data: map[string]string{"d": "0"}}
	if _, err := cms.Create(context.Background(), cm, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// relabel sets label v, which the jqFilter keeps.
func relabel(t *testing.T, cms typedcorev1.ConfigMapInterface, name, v string) {
	t.Helper()
	change(t, cms, name, func(cm *corev1.ConfigMap) { cm.Labels["v"] = v })
}

// rewriteData changes what the jqFilter leaves out.
func rewriteData(t *testing.T, cms typedcorev1.ConfigMapInterface, name string) {
	t.Helper()
	change(t, cms, name, func(cm *corev1.ConfigMap) { cm.Data["d"] += "1" })
}

func change(t *testing.T, cms typedcorev1.ConfigMapInterface, name string, edit func(*corev1.ConfigMap)) {
	t.Helper()
	cm, err := cms.Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	edit(cm)
	if _, err := cms.Update(context.Background(), cm, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
}
