package chartrun

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/metadata"
)

// liveIndexWatch bounds each watch of the live index, in seconds; the next
// drift check after it ends lists the kind again.
const liveIndexWatch int64 = 30 * 60

// lister lists and watches one kind in one namespace.
type lister interface {
	// list returns the listed objects that are not being deleted, by name,
	// with their content (nil when only metadata is listed), and the
	// list's resource version.
	list(ctx context.Context, key kindIn, opts metav1.ListOptions) (map[string]map[string]any, string, error)
	watch(ctx context.Context, key kindIn, opts metav1.ListOptions) (watch.Interface, error)
}

// kindClient is what a lister needs of a metadata or a dynamic client of
// one kind; L is the client's list type.
type kindClient[L kindList] interface {
	List(ctx context.Context, opts metav1.ListOptions) (L, error)
	Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error)
}

// kindList is a metadata or an unstructured list.
type kindList interface {
	runtime.Object
	GetResourceVersion() string
}

// kindLister is the lister over one client type: metadata (the names
// index, the absent checks) or whole objects (the live index, drift
// checks, the readiness wait).
type kindLister[L kindList] struct {
	client func(key kindIn) kindClient[L]
}

func metadataLister(c metadata.Interface) lister {
	return kindLister[*metav1.PartialObjectMetadataList]{func(key kindIn) kindClient[*metav1.PartialObjectMetadataList] {
		return metadataResource(c, key)
	}}
}

func objectLister(c dynamic.Interface) lister {
	return kindLister[*unstructured.UnstructuredList]{func(key kindIn) kindClient[*unstructured.UnstructuredList] {
		return objectResource(c, key)
	}}
}

func (l kindLister[L]) list(ctx context.Context, key kindIn, opts metav1.ListOptions) (map[string]map[string]any, string, error) {
	got, err := l.client(key).List(ctx, opts)
	var items []runtime.Object
	if err == nil {
		items, err = meta.ExtractList(got)
	}
	if err != nil {
		return nil, "", fmt.Errorf("list %s in %q: %w", key.resource, key.namespace, err)
	}
	present := make(map[string]map[string]any, len(items))
	for _, item := range items {
		if name, body, gone := entryOf(item); !gone {
			present[name] = body
		}
	}
	return present, got.GetResourceVersion(), nil
}

func (l kindLister[L]) watch(ctx context.Context, key kindIn, opts metav1.ListOptions) (watch.Interface, error) {
	return l.client(key).Watch(ctx, opts)
}

// metadataResource is the metadata client of key's kind in its namespace.
func metadataResource(c metadata.Interface, key kindIn) metadata.ResourceInterface {
	kind := c.Resource(key.resource)
	return inNamespace(kind, metadata.ResourceInterface(kind), key.namespace)
}

// objectResource is the dynamic client of key's kind in its namespace.
func objectResource(c dynamic.Interface, key kindIn) dynamic.ResourceInterface {
	kind := c.Resource(key.resource)
	return inNamespace(kind, dynamic.ResourceInterface(kind), key.namespace)
}

// inNamespace narrows a kind's client (all: the same client, cluster-wide)
// to namespace, when there is one.
func inNamespace[R any](kind interface{ Namespace(string) R }, all R, namespace string) R {
	if namespace == "" {
		return all
	}
	return kind.Namespace(namespace)
}
