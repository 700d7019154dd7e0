package kube_test

import (
	"context"
	"fmt"
	"log/slog"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/addon-actors/addon-operator/actors/kube"
	"github.com/addon-actors/addon-operator/hook/bindings"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/test/actortest"

	"github.com/addon-actors/addon-operator/hookexec/hookconfig"
)

// A namespace label selector follows the namespaces: the Synchronization
// holds the objects of the matching ones; the objects of a namespace that
// starts to match run the hook as Added, as do later changes there; a
// namespace that stops matching leaves the snapshot and its changes run
// nothing.
func TestNamespaceLabelSelector(t *testing.T) {
	client := testKube.Client(t)
	picked, other := testKube.Namespace(t), testKube.Namespace(t)
	label := "watch-" + picked
	setLabel(t, client, picked, label, "yes")
	createLabelled(t, client.CoreV1().ConfigMaps(picked), "a")
	createLabelled(t, client.CoreV1().ConfigMaps(other), "b")

	cfg, err := hookconfig.Parse([]byte(fmt.Sprintf(`{"configVersion":"v1","kubernetes":[{"name":"cms","apiVersion":"v1",`+
		`"kind":"ConfigMap","jqFilter":"{name: .metadata.name, labels: .metadata.labels}",`+
		`"namespace":{"labelSelector":{"matchLabels":{%q:"yes"}}}}]}`, label)), bindings.ScopeGlobal)
	if err != nil {
		t.Fatal(err)
	}
	logs := make(chan slog.Record, 256)
	kit, pid, queue, report := spawnKube(t, testKube.Config(t), kube.Options{Log: slog.New(actortest.LogHandler(logs))})
	kit.Send(pid, messages.WatchKube{Owner: "global", Monitors: []messages.HookMonitor{{Hook: "h", Version: cfg.Version, Binding: cfg.Kubernetes[0]}}})
	actortest.ExpectLog(t, logs, slog.LevelInfo, "namespace picked", map[string]string{"hook": "h", "binding": "cms", "namespace": picked})
	actortest.Expect[messages.KubeSynced](report, time.Minute)
	sync := contextsOf(t, expectTask(queue, time.Minute))
	if len(sync) != 1 || sync[0].Type != "Synchronization" || len(sync[0].Objects) != 1 || sync[0].Objects[0].FilterResult.Name != "a" {
		t.Fatalf("Synchronization %+v, want a only", sync)
	}

	setLabel(t, client, other, label, "yes")
	actortest.ExpectLog(t, logs, slog.LevelInfo, "namespace picked", map[string]string{"hook": "h", "binding": "cms", "namespace": other})
	expectEvents(t, queue, event{"Added", "b"})
	createLabelled(t, client.CoreV1().ConfigMaps(other), "c")
	expectEvents(t, queue, event{"Added", "c"})

	setLabel(t, client, picked, label, "no")
	actortest.ExpectLog(t, logs, slog.LevelInfo, "namespace dropped", map[string]string{"hook": "h", "binding": "cms", "namespace": picked})
	relabel(t, client.CoreV1().ConfigMaps(picked), "a", "2")
	createLabelled(t, client.CoreV1().ConfigMaps(picked), "d")
	relabel(t, client.CoreV1().ConfigMaps(other), "b", "2")
	expectEvents(t, queue, event{"Modified", "b"}) // fails on an event of a or d
	queue.ExpectNoMessage(100 * time.Millisecond)

	probe := kit.NewProbe()
	probe.Send(pid, messages.GetSnapshots{Owner: "global", Hook: "h"})
	checkSnapshot(t, actortest.Expect[messages.HookSnapshots](probe, time.Minute), clusterLabels(t, client, other))
}

func setLabel(t *testing.T, client kubernetes.Interface, ns, key, value string) {
	t.Helper()
	ctx := context.Background()
	obj, err := client.CoreV1().Namespaces().Get(ctx, ns, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if obj.Labels == nil {
		obj.Labels = map[string]string{}
	}
	obj.Labels[key] = value
	if _, err := client.CoreV1().Namespaces().Update(ctx, obj, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
}
