package objectpatch_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/restmapper"

	"github.com/addon-actors/addon-operator/hookexec/objectpatch"
)

// env is one test's applier, typed client and namespace.
type env struct {
	t       testing.TB
	applier *objectpatch.Applier
	client  kubernetes.Interface
	ns      string
	// outcomes counts Observe calls by "operation/outcome".
	outcomes map[string]int
	mu       sync.Mutex
}

func newEnv(t testing.TB, deleteTimeout time.Duration) *env {
	t.Helper()
	return newEnvQPS(t, deleteTimeout, 1000, 1000)
}

// newEnvQPS is newEnv with the applier's client limited to qps and burst.
func newEnvQPS(t testing.TB, deleteTimeout time.Duration, qps float32, burst int) *env {
	t.Helper()
	cfg := kube.Config(t)
	cfg.QPS, cfg.Burst = qps, burst
	client := kubernetes.NewForConfigOrDie(cfg)
	mapper := restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(client.Discovery()))
	e := &env{t: t, client: client, ns: kube.Namespace(t), outcomes: map[string]int{}}
	e.applier = objectpatch.NewApplier(objectpatch.Options{Client: dynamic.NewForConfigOrDie(cfg), Mapper: mapper,
		DeleteTimeout: deleteTimeout, Observe: func(owner string, op objectpatch.Kind, outcome string) {
			e.mu.Lock()
			defer e.mu.Unlock()
			e.outcomes[fmt.Sprintf("%s/%s/%s", owner, op, outcome)]++
		}})
	return e
}

// apply parses the stream ($NS replaced by the test's namespace) and
// applies it.
func (e *env) apply(stream string) error {
	e.t.Helper()
	ops, err := objectpatch.Parse([]byte(e.expand(stream)))
	if err != nil {
		e.t.Fatalf("parse: %v", err)
	}
	return e.applier.Apply(context.Background(), "demo", ops)
}

func (e *env) expand(s string) string { return strings.ReplaceAll(s, "$NS", e.ns) }

func (e *env) configMap(name string) (*corev1.ConfigMap, bool) {
	e.t.Helper()
	cm, err := e.client.CoreV1().ConfigMaps(e.ns).Get(context.Background(), name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil, false
	}
	if err != nil {
		e.t.Fatalf("get configmap %s: %v", name, err)
	}
	return cm, true
}

func (e *env) createConfigMap(name string, data map[string]string, finalizers ...string) {
	e.t.Helper()
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Finalizers: finalizers}, Data: data}
	if _, err := e.client.CoreV1().ConfigMaps(e.ns).Create(context.Background(), cm, metav1.CreateOptions{}); err != nil {
		e.t.Fatalf("create configmap %s: %v", name, err)
	}
}
