package drift

import (
	"encoding/json"
	"fmt"
	"strings"
)

// operation is one RFC 6902 operation. Value is never omitted: a test of null needs it.
type operation struct {
	Op    string `json:"op"`
	Path  string `json:"path"`
	Value any    `json:"value"`
}

// Patch returns an RFC 6902 JSON patch (as JSON bytes) that sets each field to its rendered value and
// nothing else: "replace" for a present field, "add" for a missing one (creating missing parent
// objects with further "add" ops as needed), each preceded by a "test" op of the live value where it is present,
// so that the patch fails instead of overwriting a concurrent change.
//
// A missing field has no test: RFC 6902 cannot test for absence, and an "add" over a field
// created meanwhile replaces it. No fields make an empty patch, "[]".
func Patch(fields []Field) ([]byte, error) {
	ops := []json.RawMessage{}
	added := map[string]bool{}
	for _, f := range fields {
		fieldOps, err := fieldOperations(f, added)
		if err != nil {
			return nil, fmt.Errorf("patch %s: %w", f.Path, err)
		}
		for _, op := range fieldOps {
			raw, err := json.Marshal(op)
			if err != nil {
				return nil, fmt.Errorf("patch %s: %s %s: %w", f.Path, op.Op, op.Path, err)
			}
			ops = append(ops, raw)
		}
	}
	patch, err := json.Marshal(ops)
	if err != nil {
		return nil, fmt.Errorf("json patch of %d fields: %w", len(fields), err)
	}
	return patch, nil
}

// fieldOperations returns the operations that restore one field; added holds the parents
// earlier fields already add, so that two missing labels add the labels object once.
func fieldOperations(f Field, added map[string]bool) ([]operation, error) {
	if !strings.HasPrefix(f.Pointer, "/") {
		return nil, fmt.Errorf("pointer %q does not start with /", f.Pointer)
	}
	if !f.Missing {
		return []operation{{"test", f.Pointer, f.Live}, {"replace", f.Pointer, f.Rendered}}, nil
	}
	parents, err := missingParents(f.Pointer, f.MissingParents)
	if err != nil {
		return nil, err
	}
	var ops []operation
	for _, parent := range parents {
		if !added[parent] {
			added[parent] = true
			ops = append(ops, operation{"add", parent, map[string]any{}})
		}
	}
	return append(ops, operation{"add", f.Pointer, f.Rendered}), nil
}

// missingParents returns the pointers of the n innermost parents of pointer, outermost first.
func missingParents(pointer string, n int) ([]string, error) {
	tokens := strings.Split(pointer, "/")[1:]
	if n < 0 || n >= len(tokens) {
		return nil, fmt.Errorf("%d missing parents of %s: it has %d", n, pointer, len(tokens)-1)
	}
	parents := make([]string, 0, n)
	for depth := len(tokens) - n; depth < len(tokens); depth++ {
		parents = append(parents, "/"+strings.Join(tokens[:depth], "/"))
	}
	return parents, nil
}
