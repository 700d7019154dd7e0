package chartrun

import (
	"context"
	"log/slog"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
)

// objectIndex is, per kind and namespace, the objects helm labelled that
// exist and are not being deleted, listed by the first check that needs the
// kind and kept current by a watch. A Releaser keeps two:
//
//   - names (metadata only) serves the first run of each release after a
//     start (the runs whose history comes from the start's index, see
//     startIndex): each of them would otherwise list the same kind again,
//     which is most of a skipped module run's time. A later run, whose
//     release this releaser may have just written, asks the cluster. Its
//     watches end after startIndexWatch.
//   - live (whole objects) serves the drift checks, at module runs that skip
//     helm and on the periodic check: one list per kind and namespace for all
//     releases, then only watch events. A watch that ends is listed again by
//     the next check that needs it. A drift seen here is confirmed with a GET
//     of that object before it counts, so a lagging watch never reports one.
//
// A kind whose list or watch fails is asked again by the next caller.
type objectIndex struct {
	log *slog.Logger
	// lists is the client of each kind: metadata or whole objects.
	lists lister
	// watchFor bounds each watch, in seconds.
	watchFor int64
	mu       sync.Mutex
	kinds    map[kindIn]*kindObjects
	// changed, when set, is told about every change a watch sees (tests).
	changed func(key string)
}

// kindObjects is the present objects of one kind in one namespace, by name:
// their content in the live index as compact JSON, nil in the names index.
// JSON, not the decoded map: a decoded ConfigMap is several times its JSON
// on the heap, the index holds every object of every release, and only a
// drift check reads one (decoding its release's few objects then).
type kindObjects struct {
	listed  chan struct{} // closed once the list is in (or failed)
	mu      sync.Mutex
	live    bool
	objects map[string][]byte
}

// present returns which of names exist among the objects of key, from the
// index; false when it cannot tell (the list or watch failed or ended).
func (x *objectIndex) present(ctx context.Context, key kindIn, names []string) (map[string]bool, bool) {
	objects, ok := x.get(ctx, key, names)
	if !ok {
		return nil, false
	}
	found := make(map[string]bool, len(objects))
	for n := range objects {
		found[n] = true
	}
	return found, true
}

// get returns the objects of key named in names that exist, by name (the
// contents are shared and must not be changed); false when it cannot tell.
// A run asks for its release's objects only: what it costs does not grow
// with the objects of other releases in the index.
func (x *objectIndex) get(ctx context.Context, key kindIn, names []string) (map[string]map[string]any, bool) {
	k := x.kind(ctx, key)
	select {
	case <-k.listed:
	case <-ctx.Done():
		return nil, false
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if !k.live {
		x.drop(key, k)
		return nil, false
	}
	objects := make(map[string]map[string]any, len(names))
	for _, n := range names {
		packed, ok := k.objects[n]
		if !ok {
			continue
		}
		body, err := unpack(packed)
		if err != nil {
			return nil, false // the caller asks the cluster
		}
		objects[n] = body
	}
	return objects, true
}

// namesOf are the names of objects.
func namesOf(objects []*Object) []string {
	names := make([]string, len(objects))
	for i, o := range objects {
		names[i] = o.Name
	}
	return names
}

// kind returns the entry of key, starting its list and watch if none runs.
func (x *objectIndex) kind(ctx context.Context, key kindIn) *kindObjects {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.kinds == nil {
		x.kinds = map[kindIn]*kindObjects{}
	}
	k, ok := x.kinds[key]
	if !ok {
		k = &kindObjects{listed: make(chan struct{})}
		x.kinds[key] = k
		go x.load(ctx, key, k)
	}
	return k
}

// drop forgets a kind that can no longer tell, so that the next caller of
// the live index lists it again (the names index keeps it: its later
// callers ask the cluster).
func (x *objectIndex) drop(key kindIn, k *kindObjects) {
	if x.watchFor == startIndexWatch {
		return
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.kinds[key] == k {
		delete(x.kinds, key)
	}
}

// load lists the kind's objects that helm labelled and watches them.
func (x *objectIndex) load(ctx context.Context, key kindIn, k *kindObjects) {
	defer close(k.listed)
	ctx = context.WithoutCancel(ctx) // other runs wait for this list too
	opts := metav1.ListOptions{LabelSelector: helmManaged}
	listed, rv, err := x.lists.list(ctx, key, opts)
	if err != nil {
		return
	}
	objects, err := packAll(listed)
	if err != nil {
		return
	}
	timeout := x.watchFor
	opts.ResourceVersion, opts.TimeoutSeconds = rv, &timeout
	w, err := x.lists.watch(ctx, key, opts)
	if err != nil {
		return
	}
	k.objects, k.live = objects, true
	go x.follow(w, key, k, time.Now())
}

// entryOf is an object's name, its content (whole objects only) and
// whether it is gone (being deleted).
func entryOf(obj runtime.Object) (name string, body map[string]any, gone bool) {
	switch o := obj.(type) {
	case *metav1.PartialObjectMetadata:
		return o.Name, nil, o.DeletionTimestamp != nil
	case *unstructured.Unstructured:
		// managedFields are most of a small object and nothing here reads
		// them (a drift is confirmed with a GET): the index keeps the rest.
		unstructured.RemoveNestedField(o.Object, "metadata", "managedFields")
		return o.GetName(), o.Object, o.GetDeletionTimestamp() != nil
	}
	return "", nil, true
}

// follow applies the watch's events; an object that loses helm's label
// comes as deleted (the watch is label-selected).
func (x *objectIndex) follow(w watch.Interface, key kindIn, k *kindObjects, since time.Time) {
	defer w.Stop()
	defer x.warnIfDropped(key, since)
	for ev := range w.ResultChan() {
		name, body, gone := entryOf(ev.Object)
		packed, err := pack(body)
		k.mu.Lock()
		switch {
		case ev.Type == watch.Error || name == "" || err != nil:
			k.live = false
		case ev.Type == watch.Bookmark:
		case ev.Type == watch.Deleted || gone:
			delete(k.objects, name)
		default:
			k.objects[name] = packed
		}
		k.mu.Unlock()
		x.mu.Lock()
		changed := x.changed
		x.mu.Unlock()
		if changed != nil && name != "" {
			changed(key.namespace + "/" + key.resource.Resource + "/" + name)
		}
	}
	k.mu.Lock()
	k.live = false
	k.mu.Unlock()
}

// warnIfDropped tells that a names watch ended before its time (the
// apiserver went away): nothing resumes it, the checks of that kind ask
// the cluster. The live index lists such a kind again when next asked.
func (x *objectIndex) warnIfDropped(key kindIn, since time.Time) {
	if d := time.Since(since); x.log != nil && x.watchFor == startIndexWatch && early(d) {
		x.log.Warn("helm object index watch dropped; absent checks ask the cluster", "resource", key.resource.Resource,
			"namespace", key.namespace, "after", d.Round(time.Millisecond).String())
	}
}
