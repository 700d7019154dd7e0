package kubewatch

import (
	"context"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/tools/cache"
)

// Handler gets an informer's changes, in order, on its goroutine. An
// update is only reported when the resource version changed.
type Handler struct {
	Add    func(obj any)
	Update func(old, obj any)
	Delete func(obj any)
}

// Informer keeps the objects a ListerWatcher gives and reports their
// changes, like client-go's SharedIndexInformer, but on a reflector whose
// backoff is capped at a second. The shared informer's reflector starts
// over after every list-and-watch that ends (a watch the apiserver ends as
// it shuts down, a resource version a restarted apiserver no longer has)
// after a backoff that doubles each time up to 30 s (60 s with jitter) and
// resets only after two quiet minutes, with no way to configure it: after a
// few outages in a row a watch resumed 18 s after the apiserver was back.
type Informer struct {
	reflector *cache.Reflector
	store     *diffStore
}

// Backoff is the reflector's: a quarter of a second, doubling up to one.
var Backoff = wait.Backoff{Duration: 250 * time.Millisecond, Factor: 2, Jitter: 0.1, Steps: 1 << 20, Cap: time.Second}

// NewInformer returns an informer of the objects lw lists, of example's
// type; transform, when set, is applied to each object before it is kept.
func NewInformer(lw cache.ListerWatcher, example runtime.Object, name string, transform cache.TransformFunc, h Handler) *Informer {
	store := &diffStore{objects: map[string]any{}, transform: transform, h: h, synced: make(chan struct{})}
	backoff := Backoff
	r := cache.NewReflectorWithOptions(lw, example, store, cache.ReflectorOptions{Name: name, TypeDescription: name, Backoff: &backoff})
	return &Informer{reflector: r, store: store}
}

// Run lists and watches until ctx is done.
func (i *Informer) Run(ctx context.Context) { i.reflector.RunWithContext(ctx) }

// Synced is closed once the first list has been reported.
func (i *Informer) Synced() <-chan struct{} { return i.store.synced }

// Get returns the object of key (namespace/name) as last reported.
func (i *Informer) Get(key string) (any, bool) {
	i.store.mu.Lock()
	defer i.store.mu.Unlock()
	obj, ok := i.store.objects[key]
	return obj, ok
}

// diffStore is the reflector's store: it keeps the objects by key and
// reports each change to the handler; a relist reports what it changed.
type diffStore struct {
	mu        sync.Mutex
	objects   map[string]any
	transform cache.TransformFunc
	h         Handler
	synced    chan struct{}
	once      sync.Once
}

func (s *diffStore) Add(obj any) error { return s.put(obj) }

func (s *diffStore) Update(obj any) error { return s.put(obj) }

func (s *diffStore) put(obj any) error {
	obj, key, err := s.prepare(obj)
	if err != nil {
		return err
	}
	s.mu.Lock()
	old, had := s.objects[key]
	s.objects[key] = obj
	s.mu.Unlock()
	s.report(old, had, obj)
	return nil
}

func (s *diffStore) prepare(obj any) (any, string, error) {
	if s.transform != nil {
		var err error
		if obj, err = s.transform(obj); err != nil {
			return nil, "", err
		}
	}
	key, err := cache.DeletionHandlingMetaNamespaceKeyFunc(obj)
	return obj, key, err
}

func (s *diffStore) report(old any, had bool, obj any) {
	switch {
	case !had && s.h.Add != nil:
		s.h.Add(obj)
	case had && s.h.Update != nil && resourceVersion(old) != resourceVersion(obj):
		s.h.Update(old, obj)
	}
}

func (s *diffStore) Delete(obj any) error {
	key, err := cache.DeletionHandlingMetaNamespaceKeyFunc(obj)
	if err != nil {
		return err
	}
	s.mu.Lock()
	old, had := s.objects[key]
	delete(s.objects, key)
	s.mu.Unlock()
	if had && s.h.Delete != nil {
		s.h.Delete(old)
	}
	return nil
}

// Replace reports a list: the objects that are new, changed or gone.
func (s *diffStore) Replace(list []any, _ string) error {
	seen := map[string]bool{}
	for _, obj := range list {
		obj, key, err := s.prepare(obj)
		if err != nil {
			return err
		}
		seen[key] = true
		s.mu.Lock()
		old, had := s.objects[key]
		s.objects[key] = obj
		s.mu.Unlock()
		s.report(old, had, obj)
	}
	s.mu.Lock()
	var gone []any
	for key, obj := range s.objects {
		if !seen[key] {
			gone = append(gone, obj)
			delete(s.objects, key)
		}
	}
	s.mu.Unlock()
	for _, obj := range gone {
		if s.h.Delete != nil {
			s.h.Delete(obj)
		}
	}
	s.once.Do(func() { close(s.synced) })
	return nil
}

func (s *diffStore) Resync() error { return nil }

// Transformer makes the reflector apply the transform to each object of a
// streamed initial list (watch-list) as it arrives, in the temporary store
// it fills before Replace: the full objects of a large list are then never
// held all at once. Replace's transform of an object already transformed
// must return it as it is.
func (s *diffStore) Transformer() cache.TransformFunc { return s.transform }

func resourceVersion(obj any) string {
	if o, ok := obj.(interface{ GetResourceVersion() string }); ok {
		return o.GetResourceVersion()
	}
	return ""
}
