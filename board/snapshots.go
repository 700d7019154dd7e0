package board

import (
	"maps"

	"github.com/addon-actors/addon-operator/hook/bctx"
)

// hookKey names a hook of an owner ("global" or "module/NAME").
type hookKey struct{ owner, hook string }

// SetSnapshot publishes the objects of one kubernetes binding of an
// owner's hook (kube actor only).
func (b *Board) SetSnapshot(owner, hook, binding string, objects Objects) {
	k := hookKey{owner, hook}
	// The few bindings of one hook are copied: Snapshots reads them unlocked.
	b.snapshots.change(k, func(old map[string]Objects, _ bool) map[string]Objects {
		next := make(map[string]Objects, len(old)+1)
		maps.Copy(next, old)
		next[binding] = objects
		return next
	})
	b.notify()
}

// DropSnapshots forgets the snapshots of every hook of owner (kube actor
// only, when the owner's bindings change or stop).
func (b *Board) DropSnapshots(owner string) {
	b.snapshots.deleteIf(func(k hookKey) bool { return k.owner == owner })
	b.notify()
}

// Snapshots returns the published objects of every kubernetes binding of
// an owner's hook, by binding, and whether the hook has any binding
// watched.
func (b *Board) Snapshots(owner, hook string) (bctx.Snapshots, bool) {
	byBinding, ok := b.snapshots.get(hookKey{owner, hook})
	if !ok {
		return nil, false
	}
	out := make(bctx.Snapshots, len(byBinding))
	for name, o := range byBinding {
		out[name] = o.List()
	}
	return out, true
}
