package objectpatch_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
)

const hold = "example.com/hold"

// Delete waits until the object is gone: here until the test removes the
// finalizer that holds it (as the garbage collector would).
func TestApplyDeleteWaitsUntilGone(t *testing.T) {
	e := newEnv(t, time.Minute)
	e.createConfigMap("x", nil, hold)
	w, err := e.client.CoreV1().ConfigMaps(e.ns).Watch(context.Background(), metav1.ListOptions{FieldSelector: "metadata.name=x"})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	done := make(chan error, 1)
	go func() { done <- e.apply(`{"operation":"Delete","kind":"ConfigMap","namespace":"$NS","name":"x"}`) }()
	waitDeleting(t, w)
	select {
	case err := <-done:
		t.Fatalf("Delete returned (%v) while the object was still there", err)
	default:
	}
	patch := []byte(`{"metadata":{"finalizers":null}}`)
	if _, err := e.client.CoreV1().ConfigMaps(e.ns).Patch(context.Background(), "x", types.MergePatchType, patch, metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if _, ok := e.configMap("x"); ok {
		t.Error("Delete returned with the object still there")
	}
}

// waitDeleting reads w until the object has a deletionTimestamp.
func waitDeleting(t *testing.T, w watch.Interface) {
	t.Helper()
	timeout := time.After(30 * time.Second)
	for {
		select {
		case ev := <-w.ResultChan():
			if m, ok := ev.Object.(metav1.Object); ok && m.GetDeletionTimestamp() != nil {
				return
			}
		case <-timeout:
			t.Fatal("the object never got a deletionTimestamp")
		}
	}
}

func TestApplyDeleteTimesOut(t *testing.T) {
	e := newEnv(t, 300*time.Millisecond)
	e.createConfigMap("stuck", nil, hold)
	t.Cleanup(func() {
		patch := []byte(`{"metadata":{"finalizers":null}}`)
		_, _ = e.client.CoreV1().ConfigMaps(e.ns).Patch(context.Background(), "stuck", types.MergePatchType, patch, metav1.PatchOptions{})
	})
	err := e.apply(`{"operation":"Delete","kind":"ConfigMap","namespace":"$NS","name":"stuck"}`)
	want := "item 0 (Delete ConfigMap " + e.ns + "/stuck): delete: wait until gone (300ms): the object is still there (finalizers [" + hold
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v, want one containing %q", err, want)
	}
}

// DeleteInBackground and DeleteNonCascading do not wait; a missing object
// is no error.
func TestApplyDeleteNoWait(t *testing.T) {
	e := newEnv(t, time.Minute)
	e.createConfigMap("bg", nil, hold)
	e.createConfigMap("orphan", nil)
	t.Cleanup(func() {
		patch := []byte(`{"metadata":{"finalizers":null}}`)
		for _, name := range []string{"bg", "orphan"} {
			_, _ = e.client.CoreV1().ConfigMaps(e.ns).Patch(context.Background(), name, types.MergePatchType, patch, metav1.PatchOptions{})
		}
	})
	err := e.apply(`{"operation":"DeleteInBackground","kind":"ConfigMap","namespace":"$NS","name":"bg"}
{"operation":"DeleteNonCascading","kind":"ConfigMap","namespace":"$NS","name":"orphan"}
{"operation":"Delete","kind":"ConfigMap","namespace":"$NS","name":"never-was"}`)
	if err != nil {
		t.Fatal(err)
	}
	if cm, ok := e.configMap("bg"); !ok || cm.DeletionTimestamp == nil {
		t.Error("bg: want it still there (held by its finalizer), being deleted")
	}
	// The orphan finalizer is the garbage collector's to remove; this
	// cluster runs none, so the object stays, being deleted.
	if cm, ok := e.configMap("orphan"); ok && (cm.DeletionTimestamp == nil || !slices.Contains(cm.Finalizers, "orphan")) {
		t.Errorf("orphan: finalizers %v, deletionTimestamp %v: want deleted with propagation Orphan", cm.Finalizers, cm.DeletionTimestamp)
	}
}
