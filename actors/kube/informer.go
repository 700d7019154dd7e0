package kube

import (
	"context"
	"errors"
	"fmt"
	"io"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"

	"github.com/addon-actors/addon-operator/supervision/kubewatch"
)

// accessError is a failed list or watch call, naming what was asked for.
type accessError struct {
	verb      string // list or watch
	resource  string // e.g. "configmaps", or "deployments.apps"
	namespace string // "" for all namespaces
	err       error
}

func (e *accessError) Error() string {
	return fmt.Sprintf("%s %s %s: %v", e.verb, e.resource, e.where(), e.err)
}

func (e *accessError) Unwrap() error { return e.err }

func (e *accessError) where() string {
	if e.namespace == "" {
		return "in all namespaces"
	}
	return fmt.Sprintf("in namespace %q", e.namespace)
}

// newInformer watches gvr in ns (all when "") like dynamicinformer's
// informer, on a kubewatch.Informer (whose reflector backs off a second at
// most) whose list and watch calls fail with an accessError naming the
// call and go through guard, which retries a transient failure at once and
// reports the watch down and up.
func newInformer(client clients, gvr schema.GroupVersionResource, ns string, tweak func(*metav1.ListOptions),
	guard *kubewatch.Guard, transform cache.TransformFunc, h cache.ResourceEventHandlerFuncs) *kubewatch.Informer {
	fail := func(verb string, err error) error {
		return &accessError{verb: verb, resource: gvr.GroupResource().String(), namespace: ns, err: err}
	}
	lw := &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
			tweak(&o)
			return kubewatch.Do(ctx, guard, "list", func(ctx context.Context) (runtime.Object, error) {
				list, err := client.listPaged(ctx, gvr, ns, o, transform)
				if err != nil {
					return nil, fail("list", err)
				}
				return list, nil
			})
		},
		WatchFuncWithContext: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
			tweak(&o)
			return kubewatch.Do(ctx, guard, "watch", func(ctx context.Context) (watch.Interface, error) {
				w, err := client.watch(ctx, gvr, ns, o)
				if err != nil {
					return nil, fail("watch", err)
				}
				return w, nil
			})
		},
	}
	return kubewatch.NewInformer(pagedListWatch{lw}, &unstructured.Unstructured{},
		gvr.String(), transform, kubewatch.Handler{Add: h.AddFunc, Update: h.UpdateFunc, Delete: h.DeleteFunc})
}

// pagedListWatch makes the reflector list (listPaged) rather than stream
// the initial objects as a watch-list, client-go's default: each object of
// a watch-list is decoded three times (the event, its kind, the object),
// which took two thirds of the start-up CPU at 10,000 objects.
type pagedListWatch struct{ *cache.ListWatch }

// IsWatchListSemanticsUnSupported tells the reflector to list.
func (pagedListWatch) IsWatchListSemanticsUnSupported() bool { return true }

// listPage is how many objects one page of a list carries: a page's full
// objects are held until it is slimmed (~25 MB of 1 KB ConfigMaps), and
// larger pages spare the apiserver a request per 500 objects (at 100,000
// objects, pages of 500 took twice the start-up's wall time).
const listPage = 5000

// listPaged lists what o selects in pages of listPage objects, from the
// latest snapshot (a list at least as fresh as any resourceVersion the
// reflector asks for), and applies transform to each page's objects as
// it arrives: a large list is never held whole as full objects, and each
// page is decoded in one pass (a streamed watch-list decodes every object
// three times: the event, its kind, the object).
func (c clients) listPaged(ctx context.Context, gvr schema.GroupVersionResource, ns string, o metav1.ListOptions,
	transform cache.TransformFunc) (*unstructured.UnstructuredList, error) {
	o.Limit, o.Continue, o.ResourceVersion, o.ResourceVersionMatch = listPage, "", "", ""
	var out *unstructured.UnstructuredList
	for {
		page, err := c.list(ctx, gvr, ns, o)
		if err != nil {
			return nil, err
		}
		if out == nil {
			out = &unstructured.UnstructuredList{Object: page.Object, Items: make([]unstructured.Unstructured, 0, len(page.Items))}
		}
		// A page is slimmed once decoded whole, not object by object as
		// it is read: slim objects made between the decoding of full ones
		// would each pin a span of the full ones' garbage (at 100,000
		// objects the heap in use was twice the live heap).
		for i := range page.Items {
			item, err := transformed(&page.Items[i], transform)
			if err != nil {
				return nil, err
			}
			out.Items = append(out.Items, *item)
		}
		if o.Continue = page.GetContinue(); o.Continue == "" {
			out.SetContinue("")
			out.SetRemainingItemCount(nil)
			return out, nil
		}
	}
}

// transformed is obj after transform (obj itself without one).
func transformed(obj *unstructured.Unstructured, transform cache.TransformFunc) (*unstructured.Unstructured, error) {
	if transform == nil {
		return obj, nil
	}
	t, err := transform(obj)
	if err != nil {
		return nil, err
	}
	u, ok := t.(*unstructured.Unstructured)
	if !ok {
		return nil, fmt.Errorf("transform of %s/%s gave %T", obj.GetNamespace(), obj.GetName(), t)
	}
	return u, nil
}

// guard is the kubewatch.Guard of one of the monitor's informers (source
// as informerSynced has it), which runs until ctx is done. A failure that
// is neither routine nor transient (a refusal) goes to the actor to log.
func (m *monitor) guard(ctx context.Context, resource, namespace, source string) *kubewatch.Guard {
	opts := m.watch
	opts.What = []any{"owner", m.owner, "hook", m.hook.Hook, "binding", m.hook.Binding.Name,
		"resource", resource, "namespace", namespace}
	count := opts.Failed
	opts.Failed = func(err error) {
		count(err)
		if !routine(err) && !kubewatch.Transient(err) {
			m.post(watchFailed{monitor: m.id, source: source, err: err})
		}
	}
	return kubewatch.New(ctx, opts)
}

// watchFailed reports that an informer's list or watch was refused; the
// reflector retries it.
type watchFailed struct {
	monitor int
	source  string
	err     error
}

// routine errors are part of a watch's life: the server closed it, or
// its resource version is too old and the informer lists again.
func routine(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		apierrors.IsResourceExpired(err) || apierrors.IsGone(err)
}

// denied tells a refusal (RBAC, credentials), which needs someone to act,
// from the apiserver being away, which passes.
func denied(err error) bool {
	return apierrors.IsForbidden(err) || apierrors.IsUnauthorized(err)
}
