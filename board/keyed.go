package board

import (
	"maps"
	"sync"
	"sync/atomic"
)

// keyed is a published map that its publishers change one key at a time.
// A change costs the same whatever the map's size (the board used to swap
// in a changed copy of the whole map, so that a converge of n modules,
// each publishing several times, cost O(n²)); a reader gets a copy of its
// own, which it may keep: later changes never show in it. The lock is held
// only for the map operation itself, never while an actor works.
type keyed[K comparable, V any] struct {
	mu sync.RWMutex
	m  map[K]V
}

// change replaces key's value by what f makes of it (the zero value and
// false when absent); f runs under the lock and must not block.
func (k *keyed[K, V]) change(key K, f func(V, bool) V) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.m == nil {
		k.m = map[K]V{}
	}
	old, ok := k.m[key]
	k.m[key] = f(old, ok)
}

func (k *keyed[K, V]) set(key K, v V) {
	k.change(key, func(V, bool) V { return v })
}

// deleteIf drops every key for which drop says so.
func (k *keyed[K, V]) deleteIf(drop func(K) bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	maps.DeleteFunc(k.m, func(key K, _ V) bool { return drop(key) })
}

func (k *keyed[K, V]) delete(key K) {
	k.mu.Lock()
	defer k.mu.Unlock()
	delete(k.m, key)
}

func (k *keyed[K, V]) get(key K) (V, bool) {
	k.mu.RLock()
	defer k.mu.RUnlock()
	v, ok := k.m[key]
	return v, ok
}

// copy returns the whole map as it is now (nil before anything was set).
func (k *keyed[K, V]) copy() map[K]V {
	k.mu.RLock()
	defer k.mu.RUnlock()
	return maps.Clone(k.m)
}

// one is a single published value, replaced whole by its one writer.
type one[T any] struct{ p atomic.Pointer[T] }

func (o *one[T]) store(v T) { o.p.Store(&v) }

// load returns the value, T's zero value before the first store.
func (o *one[T]) load() T {
	v, _ := o.loaded()
	return v
}

// loaded returns the value, and false before the first store.
func (o *one[T]) loaded() (T, bool) {
	if p := o.p.Load(); p != nil {
		return *p, true
	}
	var none T
	return none, false
}
