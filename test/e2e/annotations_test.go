package e2e_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	eventsv1 "k8s.io/api/events/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"
)

// The reconcile-at and reset-at annotations on a Module object
// (docs/MODULE-OBJECTS.md): reconciled, an up-to-date module, runs its hook
// and gets a new helm revision; resettable's beforeHelm fails once, and its
// 20 s backoff ends at once on reset-at. Each value handled is echoed in
// the status. The modules' names are this test's own: the objects are
// cluster-scoped.
func TestModuleObjectAnnotations(t *testing.T) {
	files := map[string]string{"modules/values.yaml": "reconciledEnabled: true\nresettableEnabled: true\n"}
	for _, m := range []string{"reconciled", "resettable"} {
		for k, v := range cmChart(m) {
			files[k] = v
		}
	}
	files["modules/reconciled/hooks/before"] = hook(`{"configVersion":"v1","beforeHelm":1}`, `record "reconciled before" order`)
	files["modules/resettable/hooks/before"] = hook(`{"configVersion":"v1","beforeHelm":1}`, `record "resettable before" order
if [[ ! -e $RECORD_DIR/failed-once ]]; then touch "$RECORD_DIR/failed-once"; echo "resettable fails once" >&2; exit 1; fi`)
	root, ns := tree(t, files), kube.Namespace(t)
	op := startSpec(t, root, ns, retryIn20s...)
	objects := dynamic.NewForConfigOrDie(kube.Config(t)).Resource(schema.GroupVersionResource{
		Group: "addon-operator.io", Version: "v1alpha1", Resource: "modules"})

	t.Run("reset-at ends the backoff", func(t *testing.T) {
		op.waitRecord(t, "task failed; retrying", map[string]any{"attempt": float64(1)})
		waitModuleObject(t, objects, "resettable", "its Retrying status", func(st map[string]any) bool { return st["phase"] == "Retrying" })
		at := annotate(t, objects, "resettable", "addon-operator.io/reset-at", "r1")
		op.waitRecord(t, "module run replaces the retry of a failing run and starts now", nil)
		op.waitReady(t)
		t.Logf("reset-at to the end of the converge: %s (the backoff was 20 s)", time.Since(at).Round(time.Millisecond))
		if n := count(lines(root, "order"), "resettable before"); n != 2 {
			t.Fatalf("resettable's beforeHelm ran %d times, want 2 (failed, then at once on reset-at)", n)
		}
		releaseDeployed(t, ns, "resettable")
		waitModuleObject(t, objects, "resettable", "lastHandledResetAt r1", func(st map[string]any) bool {
			return st["lastHandledResetAt"] == "r1" && st["phase"] == "Ready"
		})
	})
	t.Run("reconcile-at runs an up-to-date module", func(t *testing.T) {
		before := count(lines(root, "order"), "reconciled before")
		if n := len(secretVersions(t, ns, "reconciled")); n != 1 {
			t.Fatalf("reconciled has %d revisions before the reconcile, want 1", n)
		}
		at := annotate(t, objects, "reconciled", "addon-operator.io/reconcile-at", "2026-01-01T00:00:00Z")
		op.waitUntil(t, "reconciled's second revision", func() bool { return len(secretVersions(t, ns, "reconciled")) == 2 })
		t.Logf("reconcile-at to a new revision: %s", time.Since(at).Round(time.Millisecond))
		if n := count(lines(root, "order"), "reconciled before"); n != before+1 {
			t.Fatalf("reconciled's beforeHelm ran %d times after the reconcile, want %d", n, before+1)
		}
		waitModuleObject(t, objects, "reconciled", "lastHandledReconcileAt", func(st map[string]any) bool {
			return st["lastHandledReconcileAt"] == "2026-01-01T00:00:00Z"
		})
		// The value handled stays (an empty reset-at beside it is ignored
		// with a Warning Event, decided in the same step): nothing runs.
		annotate(t, objects, "reconciled", "addon-operator.io/reset-at", " ")
		waitWarning(t, "reconciled", "InvalidAnnotation")
		if n := len(secretVersions(t, ns, "reconciled")); n != 2 {
			t.Fatalf("reconciled has %d revisions after the same value, want 2", n)
		}
	})
}

// annotate sets an annotation on Module object name and returns when.
func annotate(t *testing.T, objects dynamic.NamespaceableResourceInterface, name, key, value string) time.Time {
	t.Helper()
	patch, _ := json.Marshal(map[string]any{"metadata": map[string]any{"annotations": map[string]string{key: value}}})
	at := time.Now()
	if _, err := objects.Patch(context.Background(), name, types.MergePatchType, patch, metav1.PatchOptions{}); err != nil {
		t.Fatalf("annotate Module %s: %v", name, err)
	}
	return at
}

// waitModuleObject watches Module object name until cond holds for its
// status.
func waitModuleObject(t *testing.T, objects dynamic.NamespaceableResourceInterface, name, what string,
	cond func(map[string]any) bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	w, err := objects.Watch(ctx, metav1.ListOptions{FieldSelector: "metadata.name=" + name})
	if err != nil {
		t.Fatalf("watch Module %s: %v", name, err)
	}
	defer w.Stop()
	var last map[string]any
	for ev := range w.ResultChan() {
		if u, ok := ev.Object.(*unstructured.Unstructured); ok && ev.Type != watch.Deleted {
			last, _ = u.Object["status"].(map[string]any)
			if last != nil && cond(last) {
				return
			}
		}
	}
	t.Fatalf("Module %s: no %s within 60 s; status %s", name, what, strings.TrimSpace(jsonText(last)))
}

// waitWarning watches the Events on Module object name until one has
// reason.
func waitWarning(t *testing.T, name, reason string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	w, err := kube.Client(t).EventsV1().Events("default").Watch(ctx, metav1.ListOptions{
		FieldSelector: "regarding.name=" + name + ",reason=" + reason})
	if err != nil {
		t.Fatalf("watch the Events of Module %s: %v", name, err)
	}
	defer w.Stop()
	for ev := range w.ResultChan() {
		if e, ok := ev.Object.(*eventsv1.Event); ok && e.Regarding.Kind == "Module" && e.Type == "Warning" {
			return
		}
	}
	t.Fatalf("no Warning Event %s on Module %s within 60 s", reason, name)
}

func jsonText(v any) string {
	data, _ := json.Marshal(v)
	return string(data)
}
