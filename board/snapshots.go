package board

import (
	"github.com/addon-actors/addon-operator/hook/bctx"
)

// hookKey names a hook of an owner ("global" or "module/NAME").
type hookKey struct{ owner, hook string }

// SetSnapshot publishes the objects of one kubernetes binding of an
// owner's hook (kube actor only).
func (b *Board) SetSnapshot(owner, hook, binding string, objects Objects) {
	k := hookKey{owner, hook}
	update(&b.snapshots, func(m map[hookKey]map[string]Objects) {
		next := make(map[string]Objects, len(m[k])+1)
		for name, o := range m[k] {
			next[name] = o
		}
		next[binding] = objects
		m[k] = next
	})
	b.notify()
}

// DropSnapshots forgets the snapshots of every hook of owner (kube actor
// only, when the owner's bindings change or stop).
func (b *Board) DropSnapshots(owner string) {
	update(&b.snapshots, func(m map[hookKey]map[string]Objects) {
		for k := range m {
			if k.owner == owner {
				delete(m, k)
			}
		}
	})
	b.notify()
}

// Snapshots returns the published objects of every kubernetes binding of
// an owner's hook, by binding, and whether the hook has any binding
// watched.
func (b *Board) Snapshots(owner, hook string) (bctx.Snapshots, bool) {
	m := b.snapshots.Load()
	if m == nil {
		return nil, false
	}
	byBinding, ok := (*m)[hookKey{owner, hook}]
	if !ok {
		return nil, false
	}
	out := make(bctx.Snapshots, len(byBinding))
	for name, o := range byBinding {
		out[name] = o.List()
	}
	return out, true
}
