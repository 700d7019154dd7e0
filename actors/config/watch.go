package config

import (
	"context"
	"fmt"
	"maps"
	"sync"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/cache"
)

// Snapshot is the ConfigMap's content at one moment. A missing ConfigMap is
// Exists=false with nil Data: an empty configuration, not an error.
type Snapshot struct {
	Exists          bool
	Data            map[string]string
	ResourceVersion string
}

func snapshotOf(cm *corev1.ConfigMap) Snapshot {
	if cm == nil {
		return Snapshot{}
	}
	return Snapshot{Exists: true, Data: maps.Clone(cm.Data), ResourceVersion: cm.ResourceVersion}
}

// Watch reports the ConfigMap to onChange: once with its state when the
// watch has synced (absent included), then after every add, update and
// delete. Calls are serialised and in order. It returns once synced; the
// watch runs until ctx is done. An update that leaves resourceVersion
// unchanged (a resync) is not reported.
func (s *Store) Watch(ctx context.Context, onChange func(Snapshot)) error {
	factory, err := s.startWatch(ctx, onChange)
	if factory != nil {
		go func() { <-ctx.Done(); factory.Shutdown() }()
	}
	return err
}

// Run is Watch for a caller that gives the watch a goroutine of its own: it
// returns only when ctx is done and the informer has stopped, so that
// nothing of the watch outlives the caller.
func (s *Store) Run(ctx context.Context, onChange func(Snapshot)) error {
	factory, err := s.startWatch(ctx, onChange)
	if factory != nil {
		<-ctx.Done()
		factory.Shutdown()
	}
	return err
}

// startWatch starts the informer and waits for its first list; the caller
// shuts the returned factory down once ctx is done.
func (s *Store) startWatch(ctx context.Context, onChange func(Snapshot)) (informers.SharedInformerFactory, error) {
	factory := informers.NewSharedInformerFactoryWithOptions(s.client, 0,
		informers.WithNamespace(s.namespace),
		informers.WithTweakListOptions(func(o *metav1.ListOptions) {
			o.FieldSelector = fields.OneTermEqualSelector("metadata.name", s.name).String()
		}))
	informer := factory.Core().V1().ConfigMaps().Informer()
	r := &reporter{onChange: onChange}
	reg, err := informer.AddEventHandler(r.handlers())
	if err != nil {
		return nil, fmt.Errorf("watch ConfigMap %s/%s: %w", s.namespace, s.name, err)
	}
	factory.Start(ctx.Done())
	// WaitFor returns as soon as the handler has had the first list;
	// WaitForCacheSync would poll every 100 ms, and the start-up waits
	// for this.
	if !cache.WaitFor(ctx, "", reg.HasSyncedChecker()) {
		return factory, fmt.Errorf("%w: %s/%s: %v", ErrWatchNotSynced, s.namespace, s.name, ctx.Err())
	}
	_, exists, _ := informer.GetStore().GetByKey(s.namespace + "/" + s.name)
	r.reportAbsentIfUnseen(exists)
	return factory, nil
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
