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
// decoded releases, and a round trip in every module run.
//
// An entry serves one Upgrade of its release, and only to decide a skip: a
// run that is not skipped reads the history itself. A watch from the list
// drops the entry of a release whose Secrets change meanwhile, so an entry
// is never older than the watch's latency; the watch ends after
// startIndexWatch (the server closes it) or once every entry is used, and
// then the index serves nothing more.
type startIndex struct {
	mu      sync.Mutex
	loaded  bool
	live    bool
	entries map[string][]*release.Release
	stop    context.CancelFunc
	// changed, when set, is told about every change the watch sees (tests).
	changed func(name string)
}

// startIndexWatch is how long the index is kept current, in seconds.
const startIndexWatch int64 = 60

var secretsResource = schema.GroupVersionResource{Version: "v1", Resource: "secrets"}

// take returns the revisions of the release as of the list, kept current
// by the watch, and forgets them; false when the index has none to give.
func (r *Releaser) take(ctx context.Context, name string) ([]*release.Release, bool) {
	x := &r.index
	x.mu.Lock()
	defer x.mu.Unlock()
	if !x.loaded {
		x.loaded = true
		x.load(ctx, r)
	}
	history, ok := x.entries[name]
	if !ok || !x.live {
		return nil, false
	}
	delete(x.entries, name)
	if len(x.entries) == 0 {
		x.stopLocked()
	}
	return history, true
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
		delete(entries, name)
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
	x.entries, x.live, x.stop = entries, true, stop
	go x.follow(w, r.opts.Log, time.Now())
}

// follow drops the entry of every release whose Secrets change, and ends
// the index when the watch ends.
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
		} else if delete(x.entries, name); len(x.entries) == 0 {
			x.stopLocked()
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
	delete(r.index.entries, name)
}

func (x *startIndex) stopLocked() {
	x.live, x.entries = false, nil
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
