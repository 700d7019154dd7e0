package server

import (
	"sync"

	"github.com/addon-actors/addon-operator/webhook"
)

// registry is what is served: the bindings of each owner, indexed by path
// and CRD, and each hook's gate and slots.
type registry struct {
	defaultConcurrency int
	mu                 sync.Mutex
	owners             map[string]ownerBindings
	admissions         map[string]webhook.Admission    // by path
	conversions        map[string][]webhook.Conversion // by CRD name
	hooks              map[hookKey]*hookState
}

type ownerBindings struct {
	admissions  []webhook.Admission
	conversions []webhook.Conversion
}

type hookKey struct{ owner, hook string }

func newRegistry(defaultConcurrency int) *registry {
	return &registry{defaultConcurrency: defaultConcurrency, owners: map[string]ownerBindings{},
		admissions: map[string]webhook.Admission{}, conversions: map[string][]webhook.Conversion{},
		hooks: map[hookKey]*hookState{}}
}

func (r *registry) set(owner string, admissions []webhook.Admission, conversions []webhook.Conversion) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.owners[owner] = ownerBindings{admissions: admissions, conversions: conversions}
	r.reindex()
}

func (r *registry) remove(owner string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.owners, owner)
	r.reindex()
}

// ready opens the gate of a hook, ahead of its bindings if need be.
func (r *registry) ready(owner, hook string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.hook(hookKey{owner, hook}).open()
}

// reindex rebuilds the indexes and the hooks' states: a hook keeps its
// gate while it has bindings, and loses it with its last one.
func (r *registry) reindex() {
	r.admissions = map[string]webhook.Admission{}
	r.conversions = map[string][]webhook.Conversion{}
	limits := map[hookKey]int{}
	for owner, b := range r.owners {
		for _, a := range b.admissions {
			a.Owner = owner
			r.admissions[a.Path()] = a
			limits[hookKey{owner, a.Hook}] = max(limits[hookKey{owner, a.Hook}], a.Concurrency)
		}
		for _, c := range b.conversions {
			c.Owner = owner
			r.conversions[c.CRDName] = append(r.conversions[c.CRDName], c)
			limits[hookKey{owner, c.Hook}] = max(limits[hookKey{owner, c.Hook}], c.Concurrency)
		}
	}
	for key := range r.hooks {
		if _, ok := limits[key]; !ok && r.hooks[key].bound {
			delete(r.hooks, key)
		}
	}
	for key, limit := range limits {
		if limit <= 0 {
			limit = r.defaultConcurrency
		}
		h := r.hook(key)
		h.bound = true
		if cap(h.slots) != limit {
			h.slots = make(chan struct{}, limit)
		}
	}
}

// hook returns the state of key, created closed with the default slots
// if missing.
func (r *registry) hook(key hookKey) *hookState {
	h, ok := r.hooks[key]
	if !ok {
		h = &hookState{gate: make(chan struct{}), slots: make(chan struct{}, r.defaultConcurrency)}
		r.hooks[key] = h
	}
	return h
}

func (r *registry) admission(path string) (webhook.Admission, hookChans, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	a, ok := r.admissions[path]
	if !ok {
		return a, hookChans{}, false
	}
	return a, r.hooks[hookKey{a.Owner, a.Hook}].chans(), true
}

// conversion returns the CRD's bindings and their hooks' states.
func (r *registry) conversion(crd string) ([]webhook.Conversion, map[hookKey]hookChans) {
	r.mu.Lock()
	defer r.mu.Unlock()
	bindings := append([]webhook.Conversion(nil), r.conversions[crd]...)
	hooks := map[hookKey]hookChans{}
	for _, c := range bindings {
		hooks[hookKey{c.Owner, c.Hook}] = r.hooks[hookKey{c.Owner, c.Hook}].chans()
	}
	return bindings, hooks
}
