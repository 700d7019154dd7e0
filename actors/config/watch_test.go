package config_test

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/addon-actors/addon-operator/actors/config"
)

func yamlToJSON(t testing.TB, s string) []byte {
	t.Helper()
	j, err := yaml.YAMLToJSON([]byte(s))
	if err != nil {
		t.Fatalf("yaml %q: %v", s, err)
	}
	return j
}

func watch(t *testing.T, store *config.Store) <-chan config.Snapshot {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	got := make(chan config.Snapshot, 16)
	if err := store.Watch(ctx, func(s config.Snapshot) { got <- s }); err != nil {
		t.Fatalf("watch: %v", err)
	}
	return got
}

func next(t *testing.T, got <-chan config.Snapshot) config.Snapshot {
	t.Helper()
	return receive(t, got, "ConfigMap")
}

// receive is the next report on got; none within 10s fails the test.
func receive[T any](t *testing.T, got <-chan T, what string) T {
	t.Helper()
	select {
	case s := <-got:
		return s
	case <-time.After(10 * time.Second):
		var zero T
		t.Fatalf("no %s report within 10s", what)
		return zero
	}
}

// The watch reports an absent ConfigMap as empty config, then its creation,
// edits and deletion, and only for the one ConfigMap it is named for.
func TestWatchReportsAbsentCreatedEditedDeleted(t *testing.T) {
	store, client, ns := newStore(t, nil)
	got := watch(t, store)
	if s := next(t, got); s.Exists || s.Data != nil {
		t.Fatalf("initial report = %+v, want absent", s)
	}
	ctx := context.Background()
	cms := client.CoreV1().ConfigMaps(ns)
	other := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "not-ours"}, Data: map[string]string{"global": "x: 1"}}
	if _, err := cms.Create(ctx, other, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "addon-operator"}, Data: map[string]string{"global": "a: 1\n"}}
	created, err := cms.Create(ctx, cm, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if s := next(t, got); !s.Exists || s.Data["global"] != "a: 1\n" {
		t.Fatalf("after create = %+v", s)
	}
	created.Data["global"] = "a: 2\n"
	if _, err := cms.Update(ctx, created, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if s := next(t, got); s.Data["global"] != "a: 2\n" {
		t.Fatalf("after update = %+v", s)
	}
	if err := cms.Delete(ctx, "addon-operator", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if s := next(t, got); s.Exists {
		t.Fatalf("after delete = %+v, want absent", s)
	}
}

// A ConfigMap that exists when the watch starts is reported once, present,
// never first as absent.
func TestWatchInitialReportOfExistingConfigMap(t *testing.T) {
	store, _, _ := newStore(t, map[string]string{"someModuleEnabled": "true"})
	got := watch(t, store)
	if s := next(t, got); !s.Exists || s.Data["someModuleEnabled"] != "true" {
		t.Fatalf("initial report = %+v, want the existing ConfigMap", s)
	}
	select {
	case s := <-got:
		t.Fatalf("unexpected second report %+v", s)
	default:
	}
}

// The watch reports the ConfigMap before it returns: the start-up waits
// for it.
func TestWatchReportsTheConfigMapBeforeReturning(t *testing.T) {
	store, _, _ := newStore(t, map[string]string{"global": "a: 1"})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var first config.Snapshot
	if err := store.Watch(ctx, func(s config.Snapshot) {
		if !first.Exists {
			first = s
		}
	}); err != nil {
		t.Fatalf("watch: %v", err)
	}
	if !first.Exists || first.Data["global"] != "a: 1" {
		t.Fatalf("report before Watch returned = %+v, want the ConfigMap", first)
	}
}

// BenchmarkWatchStart is the time the start-up waits for the ConfigMap: a
// wait that polls (client-go's WaitForCacheSync checks every 100 ms) shows
// as 100 ms or more.
func BenchmarkWatchStart(b *testing.B) {
	store, _, _ := newStore(b, map[string]string{"global": "a: 1"})
	for b.Loop() {
		ctx, cancel := context.WithCancel(context.Background())
		if err := store.Watch(ctx, func(config.Snapshot) {}); err != nil {
			b.Fatalf("watch: %v", err)
		}
		cancel()
	}
}
