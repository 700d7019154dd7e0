package chartrun

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/addon-actors/addon-operator/test/heap"
)

// indexedConfigMap is a ConfigMap as the live index gets it from the
// apiserver (decoded by the client, managedFields left out).
func indexedConfigMap(t testing.TB, name string) map[string]any {
	t.Helper()
	raw := `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"` + name + `","namespace":"bench",` +
		`"uid":"0b8a4e2c-6f0e-4c55-9d1e-3c0b8a4e2c6f","resourceVersion":"123456","generation":3,` +
		`"creationTimestamp":"2026-11-29T03:22:42Z","labels":{"app.kubernetes.io/managed-by":"Helm"},` +
		`"annotations":{"meta.helm.sh/release-name":"m1","meta.helm.sh/release-namespace":"bench"}},` +
		`"data":{"fromHook":"x","replicas":"3","ratio":"0.5"}}`
	obj := &unstructured.Unstructured{}
	if err := obj.UnmarshalJSON([]byte(raw)); err != nil {
		t.Fatal(err)
	}
	_, body, _ := entryOf(obj)
	return body
}

// TestIndexKeepsObjectsAsJSON: the live index keeps an object as compact
// JSON and gives back what the client decoded (whole numbers as int64, as
// in an unstructured object), so a drift check compares the same values;
// the names index keeps no content.
func TestIndexKeepsObjectsAsJSON(t *testing.T) {
	body := indexedConfigMap(t, "m1-0")
	body["spec"] = map[string]any{"replicas": int64(3), "ratio": 0.5, "on": true, "none": nil}
	k := &kindObjects{listed: make(chan struct{})}
	close(k.listed)
	packed, err := packAll(map[string]map[string]any{"m1-0": body, "names-only": nil})
	if err != nil {
		t.Fatal(err)
	}
	k.objects, k.live = packed, true
	if packed["names-only"] != nil {
		t.Fatalf("the names index keeps %q, want nothing", packed["names-only"])
	}
	key := kindIn{namespace: "bench"}
	x := &objectIndex{kinds: map[kindIn]*kindObjects{key: k}}
	got, ok := x.get(context.Background(), key, []string{"m1-0", "names-only"})
	if !ok || !reflect.DeepEqual(got["m1-0"], body) {
		t.Fatalf("get = %#v, %v; want %#v", got["m1-0"], ok, body)
	}
	if v, isMap := got["names-only"]; v != nil || !isMap {
		t.Fatalf("names-only = %v (present %v), want present without content", v, isMap)
	}
	k.objects["m1-0"] = []byte("{not json")
	if _, ok := x.get(context.Background(), key, []string{"m1-0"}); ok {
		t.Fatal("get of an object that does not decode says it can tell (the caller must ask the cluster)")
	}
}

// BenchmarkIndexBytesPerObject reports the heap the live index holds per
// indexed object, as JSON (now) and as the decoded map (before).
func BenchmarkIndexBytesPerObject(b *testing.B) {
	const n = 2000
	bodies := make(map[string]map[string]any, n)
	for i := range n {
		name := fmt.Sprintf("m%d-%d", i/2, i%2)
		bodies[name] = indexedConfigMap(b, name)
	}
	for range b.N {
		decoded := heap.HeldBy(func() any {
			m := make(map[string]map[string]any, n)
			for name := range bodies {
				m[name] = indexedConfigMap(b, name)
			}
			return m
		})
		packed := heap.HeldBy(func() any {
			p, err := packAll(bodies)
			if err != nil {
				b.Fatal(err)
			}
			return p
		})
		b.ReportMetric(float64(packed)/n, "B/object")
		b.ReportMetric(float64(decoded)/n, "B/object-decoded")
	}
}
