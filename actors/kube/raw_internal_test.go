package kube

import (
	"io"
	"reflect"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
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

// TestEventDecoder: a watch stream's events are decoded in one pass each,
// their objects as an unstructured object holds them; an ERROR event's
// object is the apiserver's Status; a stream that ends is io.EOF and one
// cut in an event or an event without an object is an error.
func TestEventDecoder(t *testing.T) {
	stream := `{"type":"ADDED","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a","resourceVersion":"7"},"data":{"n":"1"},"x":2}}
{"type":"BOOKMARK","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"resourceVersion":"9"}}}
{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","status":"Failure","message":"too old resource version: 1 (9)","reason":"Expired","code":410}}
`
	d := newEventDecoder(io.NopCloser(strings.NewReader(stream)))
	typ, obj, err := d.Decode()
	if err != nil || typ != watch.Added {
		t.Fatalf("first event: %v %v", typ, err)
	}
	want := map[string]any{"kind": "ConfigMap", "apiVersion": "v1", "metadata": map[string]any{"name": "a", "resourceVersion": "7"},
		"data": map[string]any{"n": "1"}, "x": int64(2)}
	if u, ok := obj.(*unstructured.Unstructured); !ok || !reflect.DeepEqual(u.Object, want) {
		t.Fatalf("first object %#v\nwant %#v", obj, want)
	}
	if typ, obj, err := d.Decode(); err != nil || typ != watch.Bookmark || obj.(*unstructured.Unstructured).GetResourceVersion() != "9" {
		t.Fatalf("bookmark: %v %v %v", typ, obj, err)
	}
	typ, obj, err = d.Decode()
	status, ok := obj.(*metav1.Status)
	if err != nil || typ != watch.Error || !ok || status.Code != 410 || status.Reason != metav1.StatusReasonExpired {
		t.Fatalf("error event: %v %#v %v", typ, obj, err)
	}
	if !apierrors.IsResourceExpired(apierrors.FromObject(status)) {
		t.Fatalf("the reflector would not see %v as expired", status)
	}
	if _, _, err := d.Decode(); err != io.EOF {
		t.Fatalf("end of stream: %v, want io.EOF", err)
	}
	for _, bad := range []string{`{"type":"ADDED","object":{"kind":`, `{"type":"ADDED"}`, `{"type":"ADDED","object":[]}`} {
		if _, _, err := newEventDecoder(io.NopCloser(strings.NewReader(bad))).Decode(); err == nil || err == io.EOF {
			t.Errorf("Decode(%s): %v, want an error", bad, err)
		}
	}
}
