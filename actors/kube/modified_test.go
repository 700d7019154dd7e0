package kube_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"

	"github.com/addon-actors/addon-operator/actors/kube"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/test/actortest"
)

// UPSTREAM.md §8.2: with a jqFilter, a Modified object runs the hook only
// when its filter result changed: an update of what the filter drops (the
// data) runs nothing, the next one that changes a label does. Both where
// the filter runs: in the informer (slim objects) and in the actor.
func TestModifiedRunsOnlyWhenTheFilterResultChanges(t *testing.T) {
	for _, keepFull := range []bool{false, true} {
		t.Run(fmt.Sprintf("keepFullObjectsInMemory=%t", keepFull), func(t *testing.T) {
			ns := testKube.Namespace(t)
			cms := testKube.Client(t).CoreV1().ConfigMaps(ns)
			putN(t, cms, "a", "1")
			kit, pid, queue, report := spawnKube(t, testKube.Config(t), kube.Options{})
			filter := `{name: .metadata.name, labels: .metadata.labels}`
			kit.Send(pid, messages.WatchKube{Owner: "global", Monitors: []messages.HookMonitor{monitorWith(t, ns, "ConfigMap", filter, keepFull)}})
			actortest.Expect[messages.KubeSynced](report, time.Minute)
			if sync := contextsOf(t, expectTask(queue, time.Minute)); len(sync) != 1 || sync[0].Type != "Synchronization" {
				t.Fatalf("first run %+v, want the Synchronization", sync)
			}

			putN(t, cms, "a", "2") // the filter result stays {name: a, labels: null}
			label(t, cms, "a", "x", "1")
			got := contextsOf(t, expectTask(queue, time.Minute))
			if len(got) != 1 || got[0].event() != (event{"Modified", "a"}) || got[0].FilterResult.Labels["x"] != "1" {
				t.Fatalf("first run after the updates %+v, want Modified a with label x=1 (the data update runs nothing)", got)
			}
			queue.ExpectNoMessage(100 * time.Millisecond)
		})
	}
}

// label sets label key=value on ConfigMap name.
func label(t *testing.T, cms typedcorev1.ConfigMapInterface, name, key, value string) {
	t.Helper()
	cm, err := cms.Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cm.Labels = map[string]string{key: value}
	if _, err := cms.Update(context.Background(), cm, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
}
