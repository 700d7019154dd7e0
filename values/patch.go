package values

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	jsonpatch "github.com/evanphx/json-patch/v5"
)

var (
	// ErrInvalidPatch is returned for an operation that cannot be decoded:
	// an unknown op, or a missing path, from or value.
	ErrInvalidPatch = errors.New("invalid patch operation")
	// ErrInvalidPath is returned for a path that is not a JSON pointer, such
	// as "simpleOneModule.param2" (no leading slash).
	ErrInvalidPath = errors.New("invalid patch path")
	// ErrPathNotFound is returned when replace, move, copy or test address a
	// value that does not exist, or a path runs through a scalar.
	ErrPathNotFound = errors.New("patch path not found")
	// ErrTestFailed is returned when a test operation does not match.
	ErrTestFailed = errors.New("patch test failed")
)

// operation is one decoded JSON patch operation.
type operation struct {
	index int
	kind  string
	path  []string
	from  []string // move and copy only
	value any      // add, replace and test only
	// keyed is set once applied: every container on the path was an object,
	// so the path names one place whatever else the patch does to lists.
	keyed bool
	// created is the length of the path of the shallowest parent object
	// that the operation created (0: none).
	created int
}

func (op operation) String() string {
	if op.from != nil {
		return fmt.Sprintf("operation %d (%s %s from %s)", op.index, op.kind, formatPointer(op.path), formatPointer(op.from))
	}
	return fmt.Sprintf("operation %d (%s %s)", op.index, op.kind, formatPointer(op.path))
}

// DecodePatch checks every operation of p (op, path, from, value) without
// applying it, so a caller can refuse a bad patch before running anything.
func DecodePatch(p jsonpatch.Patch) error {
	_, err := decodePatch(p)
	return err
}

func decodePatch(p jsonpatch.Patch) ([]operation, error) {
	ops := make([]operation, 0, len(p))
	for i, raw := range p {
		op, err := decodeOperation(i, raw)
		if err != nil {
			return nil, err
		}
		ops = append(ops, op)
	}
	return ops, nil
}

func decodeOperation(i int, raw jsonpatch.Operation) (operation, error) {
	op := operation{index: i, kind: raw.Kind()}
	switch op.kind {
	case "add", "remove", "replace", "move", "copy", "test":
	default:
		return op, fmt.Errorf("operation %d: %w: op %q", i, ErrInvalidPatch, op.kind)
	}
	path, err := raw.Path()
	if err != nil {
		return op, fmt.Errorf("operation %d (%s): %w: path: %v", i, op.kind, ErrInvalidPatch, err)
	}
	if op.path, err = parsePointer(path); err != nil {
		return op, fmt.Errorf("operation %d (%s): %w", i, op.kind, err)
	}
	if op.kind == "move" || op.kind == "copy" {
		from, err := raw.From()
		if err != nil {
			return op, fmt.Errorf("operation %d (%s %s): %w: from: %v", i, op.kind, path, ErrInvalidPatch, err)
		}
		if op.from, err = parsePointer(from); err != nil {
			return op, fmt.Errorf("operation %d (%s %s): from: %w", i, op.kind, path, err)
		}
	}
	if op.kind == "add" || op.kind == "replace" || op.kind == "test" {
		if _, ok := raw["value"]; !ok {
			return op, fmt.Errorf("operation %d (%s %s): %w: no value", i, op.kind, path, ErrInvalidPatch)
		}
		// Decoded here rather than with raw.ValueInterface, whose numbers are
		// json-patch's own Number type; values hold float64.
		if err := decodeValue(raw["value"], &op.value); err != nil {
			return op, fmt.Errorf("operation %d (%s %s): %w: value: %v", i, op.kind, path, ErrInvalidPatch, err)
		}
	}
	return op, nil
}

func decodeValue(raw *json.RawMessage, into *any) error {
	if raw == nil {
		*into = nil
		return nil
	}
	return json.Unmarshal(*raw, into)
}

// encodeOperation turns a decoded operation back into its JSON form.
func encodeOperation(op operation) jsonpatch.Operation {
	out := jsonpatch.Operation{"op": rawJSON(op.kind), "path": rawJSON(formatPointer(op.path))}
	if op.from != nil {
		out["from"] = rawJSON(formatPointer(op.from))
	}
	if op.kind == "add" || op.kind == "replace" || op.kind == "test" {
		out["value"] = rawJSON(op.value)
	}
	return out
}

func rawJSON(v any) *json.RawMessage {
	raw, err := json.Marshal(v)
	if err != nil {
		// Values come from a decoded patch, so they always marshal.
		raw = []byte("null")
	}
	msg := json.RawMessage(raw)
	return &msg
}

// PatchRoots returns the root keys that p addresses (paths and froms), in
// order of first use; hookexec and the config writer use it for scope checks.
func PatchRoots(p jsonpatch.Patch) ([]string, error) {
	ops, err := decodePatch(p)
	if err != nil {
		return nil, err
	}
	var roots []string
	for _, op := range ops {
		for _, path := range [][]string{op.path, op.from} {
			if len(path) > 0 && !slices.Contains(roots, path[0]) {
				roots = append(roots, path[0])
			}
		}
	}
	return roots, nil
}

// ApplyPatch applies p to a copy of doc and returns the copy; doc is not
// changed. The semantics are RFC 6902 with two allowances that hooks written
// for the original addon-operator rely on:
//   - remove of a missing path is not an error;
//   - add creates missing parent objects (a null parent counts as missing),
//     so {"op":"add","path":"/someModule/x"} works before the module has any
//     values. Parents are always created as objects, never as lists.
func ApplyPatch(doc map[string]any, p jsonpatch.Patch) (map[string]any, error) {
	ops, err := decodePatch(p)
	if err != nil {
		return nil, err
	}
	out := copyMap(doc)
	if out == nil {
		out = map[string]any{}
	}
	for i := range ops {
		if err := applyOperation(out, &ops[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// applyOperation applies op to doc in place.
func applyOperation(doc map[string]any, op *operation) error {
	var err error
	switch op.kind {
	case "add":
		op.keyed, op.created, err = add(doc, op.path, DeepCopy(op.value))
	case "remove":
		op.keyed, err = remove(doc, op.path)
	case "replace":
		op.keyed, err = replace(doc, op.path, DeepCopy(op.value))
	case "move":
		op.created, err = move(doc, op.from, op.path)
	case "copy":
		op.created, err = copyValue(doc, op.from, op.path)
	case "test":
		err = test(doc, op.path, op.value)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}
