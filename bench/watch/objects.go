package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"

	"github.com/addon-actors/addon-operator/test/cluster"
)

// objects are the watched ConfigMaps and the phase each was last given.
type objects struct {
	client kubernetes.Interface
	ns     string
	mu     sync.Mutex
	phases []string
}

func newObjects(kubeconfig, ns string, n int) (*objects, error) {
	cfg, err := cluster.RestConfig(kubeconfig)
	if err != nil {
		return nil, err
	}
	cfg.QPS, cfg.Burst = 5000, 10000
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	phases := make([]string, n)
	for i := range phases {
		phases[i] = "a"
	}
	return &objects{client: client, ns: ns, phases: phases}, nil
}

func objectName(i int) string { return "cm-" + strconv.Itoa(i) }

// parallel runs do(k) for k in [0, n) on workers goroutines and returns
// the first error.
func parallel(n, workers int, do func(k int) error) error {
	var next atomic.Int64
	var first atomic.Value
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for k := int(next.Add(1) - 1); k < n && first.Load() == nil; k = int(next.Add(1) - 1) {
				if err := do(k); err != nil {
					first.CompareAndSwap(nil, err)
				}
			}
		})
	}
	wg.Wait()
	if err, ok := first.Load().(error); ok {
		return err
	}
	return nil
}

// create makes the namespace and the ConfigMaps, ~1 KB each, phase=a.
func (o *objects) create(ctx context.Context) error {
	_, err := o.client.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: o.ns}}, metav1.CreateOptions{})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		return err
	}
	pad := strings.Repeat("x", 1000)
	return parallel(len(o.phases), 16, func(i int) error {
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: objectName(i), Namespace: o.ns,
			Labels: map[string]string{"phase": "a"}}, Data: map[string]string{"pad": pad}}
		_, err := o.client.CoreV1().ConfigMaps(o.ns).Create(ctx, cm, metav1.CreateOptions{})
		if err != nil {
			return fmt.Errorf("create %s: %w", cm.Name, err)
		}
		return nil
	})
}

// setPhase patches object i's phase label and returns its resourceVersion.
func (o *objects) setPhase(ctx context.Context, i int, phase string) (string, error) {
	patch := fmt.Appendf(nil, `{"metadata":{"labels":{"phase":%q}}}`, phase)
	cm, err := o.client.CoreV1().ConfigMaps(o.ns).Patch(ctx, objectName(i), types.MergePatchType, patch, metav1.PatchOptions{})
	if err != nil {
		return "", fmt.Errorf("patch %s: %w", objectName(i), err)
	}
	return cm.ResourceVersion, nil
}

// flip is the other phase of object i, recorded as its phase.
func (o *objects) flip(i int) string {
	o.mu.Lock()
	defer o.mu.Unlock()
	next := map[string]string{"a": "b"}[o.phases[i]]
	if next == "" {
		next = "a"
	}
	o.phases[i] = next
	return next
}

// storm patches n objects' phase (a↔b) with clients goroutines as fast as
// they go, starting at object from and leaving object 0 (the sentinel's)
// alone. It returns how long it took.
func (o *objects) storm(ctx context.Context, n, clients, from int) (time.Duration, error) {
	start := time.Now()
	others := len(o.phases) - 1
	err := parallel(n, clients, func(k int) error {
		i := 1 + (from+k)%others
		_, err := o.setPhase(ctx, i, o.flip(i))
		return err
	})
	return time.Since(start), err
}
