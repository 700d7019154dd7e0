package config

import (
	"context"
	"fmt"
	"maps"
	"sync"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"

	"github.com/addon-actors/addon-operator/supervision/kubewatch"
)

// Snapshot is the ConfigMap's content at one moment. A missing ConfigMap is
// Exists=false with nil Data: an empty configuration, not an error.
type Snapshot struct {
	Exists          bool
	Data            map[string]string
	ResourceVersion string
	// raw is the ConfigMap's own data when Data has the ModuleConfigs laid
	// over it (layered).
	raw     map[string]string
	layered bool
}

// rawData is the ConfigMap's own data, without the ModuleConfigs.
func (s Snapshot) rawData() map[string]string {
	if s.layered {
		return s.raw
	}
	return s.Data
}

func snapshotOf(cm *corev1.ConfigMap) Snapshot {
	if cm == nil {
		return Snapshot{}
	}
	return Snapshot{Exists: true, Data: maps.Clone(cm.Data), ResourceVersion: cm.ResourceVersion}
}

// WatchHealth sets what the ConfigMap watch reports its drops and resumes
// to (log, gauge of watches down); call it before Watch or Run.
func (s *Store) WatchHealth(opts kubewatch.Options) { s.watch = opts }

// Watch reports the ConfigMap to onChange: once with its state when the
// watch has synced (absent included), then after every add, update and
// delete. Calls are serialised and in order. It returns once synced; the
// watch runs until ctx is done. An update that leaves resourceVersion
// unchanged (a resync) is not reported.
func (s *Store) Watch(ctx context.Context, onChange func(Snapshot)) error {
	_, err := s.startWatch(ctx, onChange)
	return err
}

// Run is Watch for a caller that gives the watch a goroutine of its own: it
// returns only when ctx is done and the informer has stopped, so that
// nothing of the watch outlives the caller.
func (s *Store) Run(ctx context.Context, onChange func(Snapshot)) error {
	stopped, err := s.startWatch(ctx, onChange)
	<-stopped
	return err
}

// startWatch starts the informer, which runs until ctx is done, and waits
// for its first list; the channel is closed once the informer has stopped.
func (s *Store) startWatch(ctx context.Context, onChange func(Snapshot)) (<-chan struct{}, error) {
	r := &reporter{onChange: onChange}
	h := r.handlers()
	informer := kubewatch.NewInformer(s.listWatch(ctx), &corev1.ConfigMap{}, "ConfigMap "+s.namespace+"/"+s.name, nil,
		kubewatch.Handler{Add: h.AddFunc, Update: h.UpdateFunc, Delete: h.DeleteFunc})
	stopped, synced := runInformer(ctx, informer)
	if !synced {
		return stopped, fmt.Errorf("%w: %s/%s: %v", ErrWatchNotSynced, s.namespace, s.name, ctx.Err())
	}
	_, exists := informer.Get(s.namespace + "/" + s.name)
	r.reportAbsentIfUnseen(exists)
	return stopped, nil
}

// runInformer runs informer until ctx is done and waits for its first
// list (the handler has had it when Synced is closed); synced is false
// when ctx ended first. stopped is closed once the informer has stopped.
func runInformer(ctx context.Context, informer *kubewatch.Informer) (stopped <-chan struct{}, synced bool) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		informer.Run(ctx)
	}()
	select {
	case <-informer.Synced():
		return done, true
	case <-ctx.Done():
		return done, false
	}
}

// listWatch lists and watches the ConfigMap by name, through a
// kubewatch.Guard: after an apiserver outage the watch resumes within a
// second of the apiserver answering (with the kubewatch.Informer, whose
// reflector backs off a second at most), not after client-go's backoff of
// up to a minute, and the outage is logged.
func (s *Store) listWatch(ctx context.Context) *cache.ListWatch {
	opts := s.watch
	opts.What = []any{"watch", "ConfigMap", "namespace", s.namespace, "name", s.name}
	cms := s.client.CoreV1().ConfigMaps(s.namespace)
	return oneByName(ctx, opts, s.name,
		func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) { return cms.List(ctx, o) }, cms.Watch)
}

// oneByName lists and watches the one object called name (a field
// selector on metadata.name) through a kubewatch.Guard reporting to opts.
func oneByName(ctx context.Context, opts kubewatch.Options, name string,
	list func(context.Context, metav1.ListOptions) (runtime.Object, error),
	watchFn func(context.Context, metav1.ListOptions) (watch.Interface, error)) *cache.ListWatch {
	guard := kubewatch.New(ctx, opts)
	byName := fields.OneTermEqualSelector("metadata.name", name).String()
	return &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
			o.FieldSelector = byName
			return kubewatch.Do(ctx, guard, "list", func(ctx context.Context) (runtime.Object, error) { return list(ctx, o) })
		},
		WatchFuncWithContext: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
			o.FieldSelector = byName
			return kubewatch.Do(ctx, guard, "watch", func(ctx context.Context) (watch.Interface, error) { return watchFn(ctx, o) })
		},
	}
}

// reporter serialises the informer's callbacks with the one report of an
// absent ConfigMap at sync, so that the first report is the initial state.
type reporter struct {
	mu       sync.Mutex
	seen     bool
	onChange func(Snapshot)
}

func (r *reporter) handlers() cache.ResourceEventHandlerFuncs {
	return cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) { r.report(obj) },
		UpdateFunc: func(old, obj any) {
			if o, n := old.(*corev1.ConfigMap), obj.(*corev1.ConfigMap); o.ResourceVersion != n.ResourceVersion {
				r.report(obj)
			}
		},
		DeleteFunc: func(any) { r.report(nil) },
	}
}

func (r *reporter) report(obj any) {
	cm, _ := obj.(*corev1.ConfigMap)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seen = true
	r.onChange(snapshotOf(cm))
}

// reportAbsentIfUnseen reports an absent ConfigMap at sync. When the store
// holds it, its Add callback is on the way (or done) and reports it instead.
func (r *reporter) reportAbsentIfUnseen(inStore bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.seen && !inStore {
		r.seen = true
		r.onChange(Snapshot{})
	}
}
