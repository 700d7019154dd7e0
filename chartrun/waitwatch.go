package chartrun

import (
	"context"
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/addon-actors/addon-operator/chartrun/readiness"
)

// kindSeen is what a follower saw of its kind and namespace: the whole
// list, or the one object of a watch event (nil when it was deleted).
type kindSeen struct {
	key    kindIn
	list   bool
	bodies map[string]map[string]any
}

// followRetry is the pause after a failed list or watch call.
const followRetry = time.Second

// follow lists the objects of key and watches them from the list's
// version, sending what it sees to seen, until ctx ends. A watch that ends
// (the apiserver's timeout, an expired version) is listed and watched
// again; a failed call is tried again after followRetry.
func (r *Releaser) follow(ctx context.Context, key kindIn, objs []*waitedObject, seen chan<- kindSeen) {
	opts := metav1.ListOptions{LabelSelector: helmManaged}
	if len(objs) == 1 {
		opts = metav1.ListOptions{FieldSelector: "metadata.name=" + objs[0].Name}
	}
	for ctx.Err() == nil {
		err := r.followOnce(ctx, key, opts, seen)
		if err == nil || ctx.Err() != nil {
			continue
		}
		r.opts.Log.Debug("helm release wait: list or watch failed; trying again", "err", err)
		t := time.NewTimer(followRetry)
		select {
		case <-ctx.Done():
		case <-t.C:
		}
		t.Stop()
	}
}

// followOnce is one list and the watch that follows it; it returns when
// the watch ends or ctx does.
func (r *Releaser) followOnce(ctx context.Context, key kindIn, opts metav1.ListOptions, seen chan<- kindSeen) error {
	lists := objectLister(r.dyn)
	bodies, rv, err := lists.list(ctx, key, opts)
	if err != nil {
		return err
	}
	if !sendSeen(ctx, seen, kindSeen{key: key, list: true, bodies: bodies}) {
		return nil
	}
	opts.ResourceVersion = rv
	w, err := lists.watch(ctx, key, opts)
	if err != nil {
		return fmt.Errorf("watch %s in %q: %w", key.resource, key.namespace, err)
	}
	defer w.Stop()
	for ev := range w.ResultChan() {
		switch ev.Type {
		case watch.Error:
			return fmt.Errorf("watch %s in %q: %v", key.resource, key.namespace, ev.Object)
		case watch.Bookmark:
			continue
		}
		name, body, gone := entryOf(ev.Object)
		if ev.Type == watch.Deleted || gone {
			body = nil
		}
		if name != "" && !sendSeen(ctx, seen, kindSeen{key: key, bodies: map[string]map[string]any{name: body}}) {
			return nil
		}
	}
	return nil
}

// sendSeen hands s to the wait's loop; false once the wait is over.
func sendSeen(ctx context.Context, seen chan<- kindSeen, s kindSeen) bool {
	select {
	case seen <- s:
		return true
	case <-ctx.Done():
		return false
	}
}

var podsResource = schema.GroupVersionResource{Version: "v1", Resource: "pods"}

// podReasons lists the pods of a workload that is not ready and says what
// holds them back; a list that fails says so in the line.
func (r *Releaser) podReasons(ctx context.Context, o *waitedObject) []string {
	if o.body == nil {
		return nil
	}
	selector, ok := readiness.Selector(o.body)
	if !ok {
		return nil
	}
	list, err := r.dyn.Resource(podsResource).Namespace(o.Namespace).List(ctx, metav1.ListOptions{LabelSelector: selector})
	if err != nil {
		return []string{fmt.Sprintf("pods of %s: %v", waitName(o.Object), err)}
	}
	pods := make([]map[string]any, len(list.Items))
	for i := range list.Items {
		pods[i] = list.Items[i].Object
	}
	return readiness.PodReasons(pods, podReasonsLimit)
}
