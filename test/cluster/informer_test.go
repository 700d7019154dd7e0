package cluster_test

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
)

type cmEvent struct {
	kind string
	data string
}

// An informer on the real apiserver sees a ConfigMap added, updated and deleted.
func TestInformerSeesConfigMapLifecycle(t *testing.T) {
	ns := kube.Namespace(t)
	client := kube.Client(t)
	events := watchConfigMaps(t, client, ns)

	ctx := context.Background()
	cms := client.CoreV1().ConfigMaps(ns)
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "probe"}, Data: map[string]string{"k": "v1"}}
	created, err := cms.Create(ctx, cm, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	expectEvent(t, events, cmEvent{"add", "v1"})

	created.Data["k"] = "v2"
	if _, err := cms.Update(ctx, created, metav1.UpdateOptions{}); err != nil {
		t.Fatalf("update: %v", err)
	}
	expectEvent(t, events, cmEvent{"update", "v2"})

	if err := cms.Delete(ctx, "probe", metav1.DeleteOptions{}); err != nil {
		t.Fatalf("delete: %v", err)
	}
	expectEvent(t, events, cmEvent{"delete", "v2"})
}

func watchConfigMaps(t *testing.T, client kubernetes.Interface, ns string) <-chan cmEvent {
	t.Helper()
	events := make(chan cmEvent, 16)
	factory := informers.NewSharedInformerFactoryWithOptions(client, 0, informers.WithNamespace(ns))
	informer := factory.Core().V1().ConfigMaps().Informer()
	send := func(kind string, obj any) {
		if cm, ok := obj.(*corev1.ConfigMap); ok && cm.Name == "probe" {
			events <- cmEvent{kind, cm.Data["k"]}
		}
	}
	_, err := informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { send("add", obj) },
		UpdateFunc: func(_, obj any) { send("update", obj) },
		DeleteFunc: func(obj any) { send("delete", obj) },
	})
	if err != nil {
		t.Fatalf("add handler: %v", err)
	}
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop); factory.Shutdown() })
	factory.Start(stop)
	if !cache.WaitForCacheSync(stop, informer.HasSynced) {
		t.Fatal("informer did not sync")
	}
	return events
}

func expectEvent(t *testing.T, events <-chan cmEvent, want cmEvent) {
	t.Helper()
	select {
	case got := <-events:
		if got != want {
			t.Fatalf("event = %+v, want %+v", got, want)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("no %+v event within 10s", want)
	}
}
