package chartrun

import (
	"context"
	"log/slog"
	"strconv"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"

	"helm.sh/helm/v3/pkg/release"
)

// startIndex is every release's revisions as their Secrets' labels tell
// them (helm keeps name, version, status and the release's own labels,
// checksum and heritage among them, on each Secret), listed with one
// request when the first Upgrade comes. After a restart every module runs
// once, each reading its history otherwise: a hundred requests, as many
// decoded releases, and a round trip in every module run. On a cold start
// the list says just as well which releases do not exist yet: their first
// runs install without a history read (a LIST of Secrets each, which the
// apiserver answers by reading every Secret of the namespace from etcd).
//
// An entry serves one Upgrade of its release, and only to decide a skip or
// the install of a release the list did not have: any other run reads the
// history itself. A watch from the list marks every release whose Secrets
// change meanwhile as seen, and a seen release is never decided from the
// index, so what the index says is never older than the watch's latency
// (helm's install refuses a name taken within it, and the run is retried).
// The watch ends after startIndexWatch (the server closes it) or on an
// error, and then the index serves nothing more.
type startIndex struct {
	mu      sync.Mutex
	loaded  bool
	live    bool
	entries map[string][]*release.Release
	// seen are the releases taken, forgotten or changed since the list.
	seen map[string]bool
	stop context.CancelFunc
	// changed, when set, is told about every change the watch sees (tests).
	changed func(name string)
}

// startIndexWatch is how long the index is kept current, in seconds.
const startIndexWatch int64 = 60

var secretsResource = schema.GroupVersionResource{Version: "v1", Resource: "secrets"}

// take returns the revisions of the release as of the list (none for a
// release the list did not have), kept current by the watch, and marks the
// release seen; false when the index has nothing to say of it.
func (r *Releaser) take(ctx context.Context, name string) ([]*release.Release, bool) {
	x := &r.index
	x.mu.Lock()
	defer x.mu.Unlock()
	if !x.loaded {
		x.loaded = true
		x.load(ctx, r)
	}
	if !x.live || x.seen[name] {
		return nil, false
	}
	history := x.entries[name]
	x.markLocked(name)
	return history, true
}

// markLocked marks a release seen: the index says nothing more of it.
func (x *startIndex) markLocked(name string) {
	delete(x.entries, name)
	if x.seen != nil {
		x.seen[name] = true
	}
}

// load lists the helm release Secrets' metadata and starts the watch; on
// any error the index stays empty.
func (x *startIndex) load(ctx context.Context, r *Releaser) {
	secrets := r.meta.Resource(secretsResource).Namespace(r.namespace)
	opts := metav1.ListOptions{LabelSelector: "owner=helm"}
	list, err := secrets.List(ctx, opts)
	if err != nil {
		r.opts.Log.Debug("helm release index not loaded", "err", err)
		return
	}
	entries, unreadable := map[string][]*release.Release{}, map[string]bool{}
	for _, s := range list.Items {
		rel, ok := revisionOf(s.Labels)
		if !ok {
			unreadable[s.Labels["name"]] = true // its history would be partial
			continue
		}
		entries[rel.Name] = append(entries[rel.Name], rel)
	}
	for name := range unreadable {
		delete(entries, name) // its history would be partial: read it
	}
	timeout := startIndexWatch
	opts.ResourceVersion, opts.TimeoutSeconds = list.ResourceVersion, &timeout
	watchCtx, stop := context.WithCancel(context.WithoutCancel(ctx))
	w, err := secrets.Watch(watchCtx, opts)
	if err != nil {
		stop()
		r.opts.Log.Debug("helm release index not watched", "err", err)
		return
	}
	x.entries, x.seen, x.live, x.stop = entries, unreadable, true, stop
	go x.follow(w, r.opts.Log, time.Now())
}

// follow marks every release whose Secrets change as seen, and ends the
// index when the watch ends.
func (x *startIndex) follow(w watch.Interface, log *slog.Logger, since time.Time) {
	defer w.Stop()
	for ev := range w.ResultChan() {
		name := ""
		if s, ok := ev.Object.(*metav1.PartialObjectMetadata); ok {
			name = s.Labels["name"]
		}
		x.mu.Lock()
		if name == "" { // an error or an object we cannot name: trust nothing
			x.stopLocked()
		} else {
			x.markLocked(name)
		}
		changed := x.changed
		x.mu.Unlock()
		if changed != nil {
			changed(name)
		}
	}
	x.mu.Lock()
	left := len(x.entries)
	x.stopLocked()
	x.mu.Unlock()
	if d := time.Since(since); left > 0 && early(d) {
		log.Warn("helm release index watch dropped; runs read their release history from the cluster",
			"releases", left, "after", d.Round(time.Millisecond).String())
	}
}

// early tells a watch that ended before the server's timeout (less a
// margin for the time its request took) from one that ran its course.
func early(d time.Duration) bool {
	return d < time.Duration(startIndexWatch)*time.Second*9/10
}

// forget drops the release's entry: this releaser is about to change it.
func (r *Releaser) forget(name string) {
	r.index.mu.Lock()
	defer r.index.mu.Unlock()
	r.index.markLocked(name)
}

func (x *startIndex) stopLocked() {
	x.live, x.entries, x.seen = false, nil, nil
	if x.stop != nil {
		x.stop()
	}
}

// revisionOf reads a revision from its Secret's labels: what decide needs
// (name, version, status, the release's labels); the manifest is not there.
func revisionOf(labels map[string]string) (*release.Release, bool) {
	version, err := strconv.Atoi(labels["version"])
	if err != nil || labels["name"] == "" || labels["status"] == "" {
		return nil, false
	}
	return &release.Release{Name: labels["name"], Version: version,
		Info: &release.Info{Status: release.Status(labels["status"])}, Labels: labels}, true
}
