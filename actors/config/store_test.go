package config_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	jsonpatch "github.com/evanphx/json-patch/v5"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/retry"
)

func patch(t testing.TB, ops string) jsonpatch.Patch {
	t.Helper()
	p, err := jsonpatch.DecodePatch([]byte(ops))
	if err != nil {
		t.Fatalf("decode patch %s: %v", ops, err)
	}
	return p
}

// A person editing the ConfigMap (read, change, update: what kubectl edit
// does) races a hook's config patches 100 times; neither side loses a change.
func TestConcurrentEditsAndConfigPatchesLoseNothing(t *testing.T) {
	store, client, ns := newStore(t, nil)
	ctx := context.Background()
	const n = 100
	seed := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "addon-operator"}, Data: map[string]string{"global": "seed: 1\n"}}
	if _, err := client.CoreV1().ConfigMaps(ns).Create(ctx, seed, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}

	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := range n {
			if err := userEdit(ctx, client, ns, fmt.Sprintf("userModule%dEnabled", i)); err != nil {
				t.Errorf("user edit %d: %v", i, err)
			}
		}
	}()
	go func() {
		defer wg.Done()
		for i := range n {
			op := fmt.Sprintf(`[{"op":"add","path":"/global/hook%d","value":%d}]`, i, i)
			if _, err := store.ApplyPatch(ctx, patch(t, op)); err != nil {
				t.Errorf("config patch %d: %v", i, err)
			}
		}
	}()
	wg.Wait()

	snap, err := store.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if snap.Data[fmt.Sprintf("userModule%dEnabled", i)] != "true" {
			t.Errorf("user edit %d lost", i)
		}
		if !strings.Contains(snap.Data["global"], fmt.Sprintf("hook%d: %d\n", i, i)) {
			t.Errorf("config patch %d lost from global:\n%s", i, snap.Data["global"])
		}
	}
	if !strings.Contains(snap.Data["global"], "seed: 1") {
		t.Errorf("seed value lost from global:\n%s", snap.Data["global"])
	}
}

func userEdit(ctx context.Context, client kubernetes.Interface, ns, key string) error {
	patient := wait.Backoff{Steps: 50, Duration: 5 * time.Millisecond, Factor: 1.3, Jitter: 0.5, Cap: 200 * time.Millisecond}
	return retry.RetryOnConflict(patient, func() error {
		cm, err := client.CoreV1().ConfigMaps(ns).Get(ctx, "addon-operator", metav1.GetOptions{})
		if err != nil {
			return err
		}
		cm.Data[key] = "true"
		_, err = client.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
		return err
	})
}

// A config patch when the ConfigMap is absent creates it; one that changes
// nothing writes nothing; keys the operator does not know survive.
func TestApplyPatchCreatesAndKeepsUnknownKeys(t *testing.T) {
	store, client, ns := newStore(t, nil)
	ctx := context.Background()

	changed, err := store.ApplyPatch(ctx, patch(t, `[{"op":"add","path":"/someModule/replicas","value":3}]`))
	if err != nil || !changed {
		t.Fatalf("patch on absent ConfigMap: changed=%v err=%v", changed, err)
	}
	snap, err := store.Read(ctx)
	if err != nil || !snap.Exists {
		t.Fatalf("after patch: %+v, %v; want the ConfigMap created", snap, err)
	}
	var section map[string]any
	if err := json.Unmarshal(yamlToJSON(t, snap.Data["someModule"]), &section); err != nil || section["replicas"] != float64(3) {
		t.Fatalf("someModule section = %q (%v), want replicas: 3", snap.Data["someModule"], err)
	}

	cm, _ := client.CoreV1().ConfigMaps(ns).Get(ctx, "addon-operator", metav1.GetOptions{})
	cm.Data["somethingElse"] = "  kept: [as, is] # comment\n"
	if _, err := client.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	before, _ := store.Read(ctx)
	changed, err = store.ApplyPatch(ctx, patch(t, `[{"op":"replace","path":"/someModule/replicas","value":3}]`))
	if err != nil || changed {
		t.Fatalf("no-op patch: changed=%v err=%v, want unchanged", changed, err)
	}
	after, _ := store.Read(ctx)
	if after.ResourceVersion != before.ResourceVersion {
		t.Fatalf("no-op patch wrote: resourceVersion %s -> %s", before.ResourceVersion, after.ResourceVersion)
	}
	if after.Data["somethingElse"] != "  kept: [as, is] # comment\n" {
		t.Fatalf("unknown key changed: %q", after.Data["somethingElse"])
	}
}
