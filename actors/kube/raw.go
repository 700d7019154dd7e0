package kube

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
)

// clients are what the informers list and watch with: the dynamic client,
// and a REST client that reads list pages and watch events as streams when
// set.
type clients struct {
	dynamic dynamic.Interface
	raw     rest.Interface
}

// list reads one page of what o selects. With a raw client the page's JSON
// is decoded in one pass, item by item: client-go's decoding of an
// unstructured list scans every byte five times (the kind, validity twice,
// the list, the items), which took most of the operator's start-up CPU at
// 100,000 objects.
func (c clients) list(ctx context.Context, gvr schema.GroupVersionResource, ns string, o metav1.ListOptions) (*unstructured.UnstructuredList, error) {
	if c.raw == nil {
		return c.dynamic.Resource(gvr).Namespace(ns).List(ctx, o)
	}
	body, err := c.stream(ctx, gvr, ns, o)
	if err != nil {
		return nil, err
	}
	defer body.Close()
	list, err := decodeList(body)
	if err != nil {
		return nil, fmt.Errorf("decode %s list: %w", gvr.GroupResource(), err)
	}
	return list, nil
}

// watch starts a watch of what o selects. With a raw client each event is
// decoded in one pass: client-go's watch decoder scans an event three
// times (its frame, the event, the object in it), which was a fifth of the
// operator's CPU in a storm of label changes.
func (c clients) watch(ctx context.Context, gvr schema.GroupVersionResource, ns string, o metav1.ListOptions) (watch.Interface, error) {
	if c.raw == nil {
		return c.dynamic.Resource(gvr).Namespace(ns).Watch(ctx, o)
	}
	o.Watch = true
	body, err := c.stream(ctx, gvr, ns, o)
	if err != nil {
		return nil, err
	}
	return watch.NewStreamWatcher(newEventDecoder(body),
		apierrors.NewClientErrorReporter(http.StatusInternalServerError, http.MethodGet, "ClientWatchDecoding")), nil
}

// stream GETs gvr's objects in ns with o as the query and returns the
// response body (an error for a status other than 2xx, as client-go's).
func (c clients) stream(ctx context.Context, gvr schema.GroupVersionResource, ns string, o metav1.ListOptions) (io.ReadCloser, error) {
	return c.raw.Get().AbsPath(resourcePath(gvr, ns)).
		SpecificallyVersionedParams(&o, metav1.ParameterCodec, metav1.SchemeGroupVersion).Stream(ctx)
}

// resourcePath is the API path of gvr's objects in ns (all when "").
func resourcePath(gvr schema.GroupVersionResource, ns string) string {
	p := path.Join("/apis", gvr.Group, gvr.Version)
	if gvr.Group == "" {
		p = path.Join("/api", gvr.Version)
	}
	if ns != "" {
		p = path.Join(p, "namespaces", ns)
	}
	return path.Join(p, gvr.Resource)
}

// decodeList reads a list's JSON: its fields as they are, and its items
// one by one, each given the list's apiVersion and item kind when it lacks
// them (the apiserver leaves them out of a built-in list's items, and
// writes kind and apiVersion before them).
func decodeList(r io.Reader) (*unstructured.UnstructuredList, error) {
	dec := json.NewDecoder(r)
	dec.UseNumber()
	if err := expectDelim(dec, '{'); err != nil {
		return nil, err
	}
	list := &unstructured.UnstructuredList{Object: map[string]any{}}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil, err
		}
		if key == "items" {
			if list.Items, err = decodeItems(dec, list); err != nil {
				return nil, err
			}
			continue
		}
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		list.Object[fmt.Sprint(key)] = numbers(v)
	}
	return list, nil
}

// decodeItems reads the items array, one object at a time.
func decodeItems(dec *json.Decoder, list *unstructured.UnstructuredList) ([]unstructured.Unstructured, error) {
	if err := expectDelim(dec, '['); err != nil {
		return nil, err
	}
	kind := strings.TrimSuffix(list.GetKind(), "List")
	var items []unstructured.Unstructured
	for dec.More() {
		var obj map[string]any
		if err := dec.Decode(&obj); err != nil {
			return nil, err
		}
		u := unstructured.Unstructured{Object: numbers(obj).(map[string]any)}
		if u.GetKind() == "" {
			u.SetKind(kind)
			u.SetAPIVersion(list.GetAPIVersion())
		}
		items = append(items, u)
	}
	return items, expectDelim(dec, ']')
}

// eventDecoder reads a watch stream's events, each decoded once into its
// type and an unstructured object (a metav1.Status for an ERROR event).
type eventDecoder struct {
	body io.ReadCloser
	dec  *json.Decoder
}

func newEventDecoder(body io.ReadCloser) *eventDecoder {
	dec := json.NewDecoder(body)
	dec.UseNumber()
	return &eventDecoder{body: body, dec: dec}
}

// Decode implements watch.Decoder.
func (d *eventDecoder) Decode() (watch.EventType, runtime.Object, error) {
	var ev struct {
		Type   watch.EventType `json:"type"`
		Object map[string]any  `json:"object"`
	}
	if err := d.dec.Decode(&ev); err != nil {
		return "", nil, err
	}
	if ev.Object == nil {
		return "", nil, fmt.Errorf("watch event %q without an object", ev.Type)
	}
	obj := numbers(ev.Object).(map[string]any)
	if ev.Type != watch.Error {
		return ev.Type, &unstructured.Unstructured{Object: obj}, nil
	}
	status := &metav1.Status{}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(obj, status); err != nil {
		return "", nil, fmt.Errorf("watch ERROR event: %w", err)
	}
	return ev.Type, status, nil
}

// Close implements watch.Decoder.
func (d *eventDecoder) Close() { _ = d.body.Close() }

func expectDelim(dec *json.Decoder, want json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok != want {
		return fmt.Errorf("want %v, got %v", want, tok)
	}
	return nil
}

// numbers turns the json.Numbers of a decoded value into int64 or float64,
// as an unstructured object holds them.
func numbers(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = numbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = numbers(e)
		}
	case json.Number:
		if n, err := x.Int64(); err == nil {
			return n
		}
		f, _ := x.Float64()
		return f
	}
	return v
}
