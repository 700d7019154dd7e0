package chartrun

import (
	"context"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// TestEntryOfLeavesManagedFieldsOut: the live index keeps an object's
// content for the drift checks, without its managedFields (most of a small
// object, read by nothing here).
func TestEntryOfLeavesManagedFieldsOut(t *testing.T) {
	obj := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "m0-0", "namespace": "bench", "labels": map[string]any{"app.kubernetes.io/managed-by": "Helm"},
			"managedFields": []any{map[string]any{"manager": "helm", "operation": "Update",
				"fieldsV1": map[string]any{"f:data": map[string]any{"f:fromHook": map[string]any{}}}}}},
		"data": map[string]any{"fromHook": "x"},
	}}
	name, body, gone := entryOf(obj)
	if name != "m0-0" || gone {
		t.Fatalf("entryOf = %q, gone %v; want m0-0, present", name, gone)
	}
	if _, found, _ := unstructured.NestedFieldNoCopy(body, "metadata", "managedFields"); found {
		t.Fatalf("the index keeps managedFields: %v", body["metadata"])
	}
	if v, _, _ := unstructured.NestedString(body, "data", "fromHook"); v != "x" {
		t.Fatalf("data.fromHook = %q, want x (the content stays)", v)
	}
	if l, _, _ := unstructured.NestedString(body, "metadata", "labels", "app.kubernetes.io/managed-by"); l != "Helm" {
		t.Fatalf("the labels are gone: %v", body["metadata"])
	}
}

// TestIndexGetReturnsTheNamesAsked: a run gets its own objects from the
// index (those that exist), not a copy of every release's objects of the
// kind.
func TestIndexGetReturnsTheNamesAsked(t *testing.T) {
	key := kindIn{namespace: "bench"}
	k := &kindObjects{listed: make(chan struct{}), live: true, objects: map[string][]byte{}}
	close(k.listed)
	for _, n := range []string{"m0-0", "m0-1", "m1-0", "m1-1"} {
		k.objects[n] = []byte(`{"name":"` + n + `"}`)
	}
	x := &objectIndex{kinds: map[kindIn]*kindObjects{key: k}}
	got, ok := x.get(context.Background(), key, []string{"m1-0", "m1-1", "m1-2"})
	if !ok || len(got) != 2 || got["m1-0"]["name"] != "m1-0" || got["m1-1"] == nil {
		t.Fatalf("get = %v, %v; want m1-0 and m1-1 (m1-2 does not exist)", got, ok)
	}
	names, ok := x.present(context.Background(), key, []string{"m0-1", "gone"})
	if !ok || len(names) != 1 || !names["m0-1"] {
		t.Fatalf("present = %v, %v; want m0-1 alone", names, ok)
	}
	k.live = false
	x.watchFor = startIndexWatch // the names index keeps a kind that cannot tell
	if _, ok := x.get(context.Background(), key, []string{"m0-0"}); ok {
		t.Fatal("get of a kind whose watch ended says it can tell")
	}
}
