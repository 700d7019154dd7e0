package board

import (
	"cmp"

	"github.com/addon-actors/addon-operator/hook/bctx"
)

// Objects is one binding's snapshot as the kube actor publishes it: its
// objects by key (namespace/name), in key order (CompareKeys). It is persistent: With
// and Without return a new version that shares all but O(log n) nodes with
// the old one, which stays as it was, so that the actor can change it on
// every event and publish it by storing a pointer, while readers walk an
// older version. The zero value is empty.
type Objects struct {
	root *objectNode
	n    int
}

// objectNode is a node of a treap whose priorities are hashes of the keys
// (so the tree's shape depends on its keys only, not on the order of the
// changes, and its depth is O(log n) expected); they are computed when
// needed rather than kept, which keeps a node in a smaller size class (it
// is the memory the snapshot costs per object). Nodes are never changed
// once another version can see them.
type objectNode struct {
	key         string
	val         bctx.ObjectAndFilterResult
	left, right *objectNode
}

func (n *objectNode) prio() uint64 { return priority(n.key) }

// Len is the number of objects.
func (o Objects) Len() int { return o.n }

// CompareKeys orders object keys ("namespace/name") by namespace, then
// name, as shell-operator sorts a snapshot (UPSTREAM.md §8.4): it compares
// as strings do, with the separator below every other byte (neither part
// holds one), so that namespace "a" comes before "a-b".
func CompareKeys(a, b string) int {
	for i := range min(len(a), len(b)) {
		switch {
		case a[i] == b[i]:
			continue
		case a[i] == '/':
			return -1
		case b[i] == '/':
			return 1
		}
		return cmp.Compare(a[i], b[i])
	}
	return cmp.Compare(len(a), len(b))
}

// Get returns the object of key.
func (o Objects) Get(key string) (bctx.ObjectAndFilterResult, bool) {
	for n := o.root; n != nil; {
		switch c := CompareKeys(key, n.key); {
		case c < 0:
			n = n.left
		case c > 0:
			n = n.right
		default:
			return n.val, true
		}
	}
	return bctx.ObjectAndFilterResult{}, false
}

// With returns o with key set to val.
func (o Objects) With(key string, val bctx.ObjectAndFilterResult) Objects {
	root, added := insert(o.root, key, val)
	if added {
		o.n++
	}
	return Objects{root: root, n: o.n}
}

// Without returns o without key (o itself when it has no such key).
func (o Objects) Without(key string) Objects {
	root, removed := remove(o.root, key)
	if !removed {
		return o
	}
	return Objects{root: root, n: o.n - 1}
}

// List returns the objects in key order (a new slice each call).
func (o Objects) List() []bctx.ObjectAndFilterResult {
	out := make([]bctx.ObjectAndFilterResult, 0, o.n)
	var walk func(*objectNode)
	walk = func(n *objectNode) {
		if n == nil {
			return
		}
		walk(n.left)
		out = append(out, n.val)
		walk(n.right)
	}
	walk(o.root)
	return out
}

// priority is the FNV-1a hash of key, mixed (splitmix64's finaliser) so
// that keys differing in their last byte get unrelated priorities.
func priority(key string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(key); i++ {
		h ^= uint64(key[i])
		h *= 1099511628211
	}
	h ^= h >> 30
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 27
	h *= 0x94d049bb133111eb
	return h ^ h>>31
}

// insert returns a copy of the path from n to key with key set; the
// returned nodes are new, so rotating them changes no older version.
func insert(n *objectNode, key string, val bctx.ObjectAndFilterResult) (*objectNode, bool) {
	if n == nil {
		return &objectNode{key: key, val: val}, true
	}
	c := *n
	var added bool
	switch order := CompareKeys(key, n.key); {
	case order < 0:
		if c.left, added = insert(n.left, key, val); added && c.left.prio() > c.prio() {
			l := c.left
			c.left, l.right = l.right, &c
			return l, added
		}
	case order > 0:
		if c.right, added = insert(n.right, key, val); added && c.right.prio() > c.prio() {
			r := c.right
			c.right, r.left = r.left, &c
			return r, added
		}
	default:
		c.val = val
	}
	return &c, added
}

// remove returns a copy of the path from n to key without key; n itself
// when key is not there.
func remove(n *objectNode, key string) (*objectNode, bool) {
	if n == nil {
		return nil, false
	}
	if key == n.key {
		return merge(n.left, n.right), true
	}
	c := *n
	var removed bool
	if CompareKeys(key, n.key) < 0 {
		c.left, removed = remove(n.left, key)
	} else {
		c.right, removed = remove(n.right, key)
	}
	if !removed {
		return n, false
	}
	return &c, true
}

// merge joins two trees whose keys are all below (a) and above (b) each
// other, copying the nodes it changes.
func merge(a, b *objectNode) *objectNode {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	case a.prio() > b.prio():
		c := *a
		c.right = merge(a.right, b)
		return &c
	default:
		c := *b
		c.left = merge(a, b.left)
		return &c
	}
}
