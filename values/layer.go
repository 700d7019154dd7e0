package values

import (
	"fmt"
	"slices"

	jsonpatch "github.com/evanphx/json-patch/v5"
)

// PatchLayer is the in-memory layer of one scope: the operations of every
// values patch its hooks returned ($VALUES_JSON_PATCH_PATH), replayed in order
// over the lower layers each time they change. Operations that a later one
// overwrites are dropped, so a hook that sets the same values on every run
// does not grow the layer. The zero value is an empty layer; a PatchLayer is
// immutable and safe to share.
//
// Replaying operations rather than keeping a values map is what lets a patch
// remove a key that comes from values.yaml or the ConfigMap, as it does in
// the original addon-operator.
type PatchLayer struct {
	ops []operation
}

// Len is the number of operations kept.
func (l PatchLayer) Len() int { return len(l.ops) }

// Operations returns the kept operations as a patch, for inspection.
func (l PatchLayer) Operations() jsonpatch.Patch {
	out := make(jsonpatch.Patch, 0, len(l.ops))
	for _, op := range l.ops {
		out = append(out, encodeOperation(op))
	}
	return out
}

// Apply replays the layer over a copy of doc.
func (l PatchLayer) Apply(doc map[string]any) (map[string]any, error) {
	out := copyMap(doc)
	if out == nil {
		out = map[string]any{}
	}
	return out, l.replay(out)
}

// replay applies the layer to doc in place.
func (l PatchLayer) replay(doc map[string]any) error {
	for i := range l.ops {
		op := l.ops[i] // a copy: replaying must not change the stored flags
		if err := applyOperation(doc, &op); err != nil {
			return fmt.Errorf("replay in-memory patch: %w", err)
		}
	}
	return nil
}

// Append applies p over doc with the layer replayed first, and returns the
// new layer and the resulting document; doc is not changed. On error the
// layer is unchanged (the caller keeps l) and nothing is returned.
func (l PatchLayer) Append(doc map[string]any, p jsonpatch.Patch) (PatchLayer, map[string]any, error) {
	out := copyMap(doc)
	if out == nil {
		out = map[string]any{}
	}
	next, err := l.appendTo(out, p)
	if err != nil {
		return l, nil, err
	}
	return next, out, nil
}

// appendTo is Append in place: doc must belong to the caller.
func (l PatchLayer) appendTo(doc map[string]any, p jsonpatch.Patch) (PatchLayer, error) {
	ops, err := decodePatch(p)
	if err != nil {
		return l, err
	}
	if err := l.replay(doc); err != nil {
		return l, err
	}
	for i := range ops {
		if err := applyOperation(doc, &ops[i]); err != nil {
			return l, err
		}
	}
	return PatchLayer{ops: compact(l.ops, ops)}, nil
}

// compact appends added to kept, dropping every earlier operation that a later
// keyed add, replace or remove overwrites whole. Test operations assert; they
// are not kept. A keyed replace is kept as an add, which does the same and
// still applies if a lower layer loses the key later.
func compact(kept, added []operation) []operation {
	out := make([]operation, 0, len(kept)+len(added))
	out = append(out, kept...)
	for _, op := range added {
		if op.kind == "test" {
			continue
		}
		if op.keyed && (op.kind == "add" || op.kind == "replace" || op.kind == "remove") {
			var created int
			out, created = dropOverwritten(out, op)
			// A dropped operation may have been the one that created parents
			// above the overwritten place; the new one now stands for that.
			op.created = shallowest(op.created, created)
			if op.kind == "replace" {
				op.kind = "add"
			}
		}
		out = append(out, op)
	}
	return out
}

// dropOverwritten removes the operations of ops whose whole effect lies in the
// subtree that last overwrites. An operation stays when a later kept one
// touches that subtree (it may have read or built on the effect), when it is a
// move out of a place outside the subtree, and, before a remove, when it
// created parent objects above the subtree (the remove would leave them).
func dropOverwritten(ops []operation, last operation) (kept []operation, created int) {
	out := make([]operation, 0, len(ops))
	readLater := false
	for i := len(ops) - 1; i >= 0; i-- {
		op := ops[i]
		if !readLater && overwritten(op, last) {
			if createdAbove(op, last.path) {
				created = shallowest(created, op.created)
			}
			continue
		}
		if overlaps(op.path, last.path) || op.from != nil && overlaps(op.from, last.path) {
			readLater = true
		}
		out = append(out, op)
	}
	slices.Reverse(out)
	return out, created
}

func overwritten(op, last operation) bool {
	if !within(op.path, last.path) {
		return false
	}
	if op.kind == "move" && !within(op.from, last.path) {
		return false
	}
	return last.kind != "remove" || !createdAbove(op, last.path)
}

func overlaps(a, b []string) bool { return within(a, b) || within(b, a) }

// createdAbove tells whether op created a parent object above path.
func createdAbove(op operation, path []string) bool {
	return op.created > 0 && op.created < len(path)
}

// shallowest returns the smaller non-zero created length.
func shallowest(a, b int) int {
	if a == 0 || (b != 0 && b < a) {
		return b
	}
	return a
}
