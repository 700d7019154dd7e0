package chartrun

import (
	"context"
	"log/slog"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/metadata"
)

// objectIndex is, per kind and namespace, the names of the objects helm
// labelled that exist and are not being deleted, listed by the first absent
// check that needs the kind and kept current by a watch. It serves only the
// first run of each release after a start (the runs whose history comes
// from the start's index, see startIndex): each of them would otherwise
// list the same kind again, which is most of a skipped module run's time.
// A later run, whose release this releaser may have just written, asks the
// cluster. A kind whose watch ends (after startIndexWatch) or fails is
// asked again.
type objectIndex struct {
	log   *slog.Logger
	mu    sync.Mutex
	kinds map[kindIn]*kindNames
	// changed, when set, is told about every change a watch sees (tests).
	changed func(key string)
}

// kindNames is the present objects of one kind in one namespace.
type kindNames struct {
	listed chan struct{} // closed once the list is in (or failed)
	mu     sync.Mutex
	live   bool
	names  map[string]bool
}

// present returns the names of the objects of key that exist, from the
// index; false when it cannot tell (the list or watch failed or ended).
func (x *objectIndex) present(ctx context.Context, meta metadata.ResourceInterface, key kindIn) (map[string]bool, bool) {
	x.mu.Lock()
	if x.kinds == nil {
		x.kinds = map[kindIn]*kindNames{}
	}
	k, ok := x.kinds[key]
	if !ok {
		k = &kindNames{listed: make(chan struct{})}
		x.kinds[key] = k
		go x.load(ctx, meta, key, k)
	}
	x.mu.Unlock()
	select {
	case <-k.listed:
	case <-ctx.Done():
		return nil, false
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if !k.live {
		return nil, false
	}
	names := make(map[string]bool, len(k.names))
	for n := range k.names {
		names[n] = true
	}
	return names, true
}

// load lists the kind's objects that helm labelled and watches them.
func (x *objectIndex) load(ctx context.Context, meta metadata.ResourceInterface, key kindIn, k *kindNames) {
	defer close(k.listed)
	ctx = context.WithoutCancel(ctx) // other runs wait for this list too
	opts := metav1.ListOptions{LabelSelector: helmManaged}
	list, err := meta.List(ctx, opts)
	if err != nil {
		return
	}
	names := map[string]bool{}
	for _, item := range list.Items {
		if item.DeletionTimestamp == nil {
			names[item.Name] = true
		}
	}
	timeout := startIndexWatch
	opts.ResourceVersion, opts.TimeoutSeconds = list.ResourceVersion, &timeout
	w, err := meta.Watch(ctx, opts)
	if err != nil {
		return
	}
	k.names, k.live = names, true
	go x.follow(w, key, k, time.Now())
}

// follow applies the watch's events; an object that loses helm's label
// comes as deleted (the watch is label-selected).
func (x *objectIndex) follow(w watch.Interface, key kindIn, k *kindNames, since time.Time) {
	defer w.Stop()
	defer x.warnIfDropped(key, since)
	for ev := range w.ResultChan() {
		o, ok := ev.Object.(*metav1.PartialObjectMetadata)
		k.mu.Lock()
		switch {
		case !ok || ev.Type == watch.Error:
			k.live = false
		case ev.Type == watch.Bookmark:
		case ev.Type == watch.Deleted || o.DeletionTimestamp != nil:
			delete(k.names, o.Name)
		default:
			k.names[o.Name] = true
		}
		k.mu.Unlock()
		x.mu.Lock()
		changed := x.changed
		x.mu.Unlock()
		if changed != nil && ok {
			changed(key.namespace + "/" + key.resource.Resource + "/" + o.Name)
		}
	}
	k.mu.Lock()
	k.live = false
	k.mu.Unlock()
}

// warnIfDropped tells that a kind's watch ended before its time (the
// apiserver went away): nothing resumes it, the checks of that kind ask
// the cluster.
func (x *objectIndex) warnIfDropped(key kindIn, since time.Time) {
	if d := time.Since(since); x.log != nil && early(d) {
		x.log.Warn("helm object index watch dropped; absent checks ask the cluster", "resource", key.resource.Resource,
			"namespace", key.namespace, "after", d.Round(time.Millisecond).String())
	}
}
