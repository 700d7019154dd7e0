package chartrun

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/metadata"
)

// liveIndexWatch bounds each watch of the live index, in seconds; the next
// drift check after it ends lists the kind again.
const liveIndexWatch int64 = 30 * 60

// metadataLister lists and watches objects' metadata (the names index).
type metadataLister struct{ meta metadata.Interface }

func (l metadataLister) resource(key kindIn) metadata.ResourceInterface {
	if key.namespace != "" {
		return l.meta.Resource(key.resource).Namespace(key.namespace)
	}
	return l.meta.Resource(key.resource)
}

func (l metadataLister) list(ctx context.Context, key kindIn, opts metav1.ListOptions) ([]runtime.Object, string, error) {
	list, err := l.resource(key).List(ctx, opts)
	if err != nil {
		return nil, "", fmt.Errorf("list %s in %q: %w", key.resource, key.namespace, err)
	}
	items := make([]runtime.Object, len(list.Items))
	for i := range list.Items {
		items[i] = &list.Items[i]
	}
	return items, list.ResourceVersion, nil
}

func (l metadataLister) watch(ctx context.Context, key kindIn, opts metav1.ListOptions) (watch.Interface, error) {
	return l.resource(key).Watch(ctx, opts)
}

// objectLister lists and watches whole objects (the live index).
type objectLister struct{ dyn dynamic.Interface }

func (l objectLister) resource(key kindIn) dynamic.ResourceInterface {
	if key.namespace != "" {
		return l.dyn.Resource(key.resource).Namespace(key.namespace)
	}
	return l.dyn.Resource(key.resource)
}

func (l objectLister) list(ctx context.Context, key kindIn, opts metav1.ListOptions) ([]runtime.Object, string, error) {
	list, err := l.resource(key).List(ctx, opts)
	if err != nil {
		return nil, "", fmt.Errorf("list %s in %q: %w", key.resource, key.namespace, err)
	}
	items := make([]runtime.Object, len(list.Items))
	for i := range list.Items {
		items[i] = &list.Items[i]
	}
	return items, list.GetResourceVersion(), nil
}

func (l objectLister) watch(ctx context.Context, key kindIn, opts metav1.ListOptions) (watch.Interface, error) {
	return l.resource(key).Watch(ctx, opts)
}
