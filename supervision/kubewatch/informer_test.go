package kubewatch_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"

	"github.com/addon-actors/addon-operator/supervision/kubewatch"
	"github.com/addon-actors/addon-operator/test/cluster"
)

var kube *cluster.Harness

func TestMain(m *testing.M) { cluster.Main(m, &kube) }

// slimmer is a transform that drops a ConfigMap's data and records, for
// each full object it slims, whether the store had reported an object yet.
type slimmer struct {
	mu        sync.Mutex
	slimmed   int
	afterAdds int // full objects slimmed after the first Add
	adds      int
}

const slimKey = "slim"

func (s *slimmer) transform(obj any) (any, error) {
	cm, ok := obj.(*corev1.ConfigMap)
	if !ok || cm.Annotations[slimKey] == "true" {
		return obj, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.slimmed++
	if s.adds > 0 {
		s.afterAdds++
	}
	slim := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: cm.Name, Namespace: cm.Namespace,
		ResourceVersion: cm.ResourceVersion, Annotations: map[string]string{slimKey: "true"}}}
	return slim, nil
}

// TestInitialListIsTransformedAsItArrives: the objects of the initial
// list are slimmed while it streams in, before the store reports any of
// them, so a large list's full objects are never held all at once; the
// store then reports every object once, slimmed.
func TestInitialListIsTransformedAsItArrives(t *testing.T) {
	cfg := kube.Config(t)
	ns := kube.Namespace(t)
	client := kubernetes.NewForConfigOrDie(cfg)
	const n = 30
	for i := range n {
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("cm-%d", i)}, Data: map[string]string{"k": "v"}}
		if _, err := client.CoreV1().ConfigMaps(ns).Create(context.Background(), cm, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	s := &slimmer{}
	var reported []*corev1.ConfigMap
	lw := cache.NewListWatchFromClient(client.CoreV1().RESTClient(), "configmaps", ns, fields.Everything())
	inf := kubewatch.NewInformer(lw, &corev1.ConfigMap{}, "configmaps", s.transform, kubewatch.Handler{Add: func(obj any) {
		s.mu.Lock()
		s.adds++
		s.mu.Unlock()
		reported = append(reported, obj.(*corev1.ConfigMap))
	}})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go inf.Run(ctx)
	<-inf.Synced()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.slimmed != n || s.afterAdds != 0 {
		t.Fatalf("slimmed %d full objects, %d of them after the store reported one; want %d, all before", s.slimmed, s.afterAdds, n)
	}
	if len(reported) != n {
		t.Fatalf("reported %d objects, want %d", len(reported), n)
	}
	for _, cm := range reported {
		if cm.Annotations[slimKey] != "true" || cm.Data != nil {
			t.Fatalf("reported %s unslimmed: %+v", cm.Name, cm)
		}
	}
}
