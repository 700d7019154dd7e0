package kube

import (
	"reflect"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// TestDecodeList: a list's items are decoded as an unstructured object
// holds them (integers int64, other numbers float64), given the list's
// apiVersion and item kind when they lack them, and the list's metadata
// (resourceVersion, continue) is kept.
func TestDecodeList(t *testing.T) {
	body := `{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"42","continue":"next"},
		"items":[{"metadata":{"name":"a","namespace":"ns"},"data":{"k":"v"},"n":3,"f":1.5,"l":[1,{"x":2}]},
		{"kind":"Other","apiVersion":"x/v1","metadata":{"name":"b"}}]}`
	list, err := decodeList(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if list.GetResourceVersion() != "42" || list.GetContinue() != "next" || len(list.Items) != 2 {
		t.Fatalf("list %+v", list)
	}
	a := list.Items[0]
	want := map[string]any{"kind": "ConfigMap", "apiVersion": "v1", "metadata": map[string]any{"name": "a", "namespace": "ns"},
		"data": map[string]any{"k": "v"}, "n": int64(3), "f": 1.5, "l": []any{int64(1), map[string]any{"x": int64(2)}}}
	if !reflect.DeepEqual(a.Object, want) {
		t.Fatalf("item %#v\nwant %#v", a.Object, want)
	}
	if b := list.Items[1]; b.GetKind() != "Other" || b.GetAPIVersion() != "x/v1" {
		t.Fatalf("an item's own kind was replaced: %v", b.Object)
	}
	for _, bad := range []string{`[]`, `{"items":{}}`, `{"items":[1]}`, `{"kind":`} {
		if _, err := decodeList(strings.NewReader(bad)); err == nil {
			t.Errorf("decodeList(%s): no error", bad)
		}
	}
}

func TestResourcePath(t *testing.T) {
	for _, tc := range []struct {
		gvr  schema.GroupVersionResource
		ns   string
		want string
	}{
		{schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}, "ns", "/api/v1/namespaces/ns/configmaps"},
		{schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}, "", "/api/v1/namespaces"},
		{schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}, "", "/apis/apps/v1/deployments"},
		{schema.GroupVersionResource{Group: "x.io", Version: "v2", Resource: "things"}, "ns", "/apis/x.io/v2/namespaces/ns/things"},
	} {
		if got := resourcePath(tc.gvr, tc.ns); got != tc.want {
			t.Errorf("resourcePath(%v, %q) = %s, want %s", tc.gvr, tc.ns, got, tc.want)
		}
	}
}
