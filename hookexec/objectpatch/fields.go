package objectpatch

import (
	"encoding/json"
	"fmt"

	jsonpatch "github.com/evanphx/json-patch/v5"
	"github.com/itchyny/gojq"
	"sigs.k8s.io/yaml"
)

// withObject reads the object of a create: a non-empty map, or a YAML or
// JSON string of one. The target comes from the object, not the item.
func withObject(op Operation, v any) (Operation, error) {
	obj, err := objectField("object", v)
	if err != nil {
		return Operation{}, err
	}
	apiVersion, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	meta, _ := obj["metadata"].(map[string]any)
	name, _ := meta["name"].(string)
	generate, _ := meta["generateName"].(string)
	namespace, _ := meta["namespace"].(string)
	switch {
	case apiVersion == "":
		return Operation{}, fmt.Errorf("field \"object\": apiVersion is required")
	case kind == "":
		return Operation{}, fmt.Errorf("field \"object\": kind is required")
	case name == "" && (op.Op != Create || generate == ""):
		return Operation{}, fmt.Errorf("field \"object\": metadata.name is required for %s", op.Op)
	}
	op.Object, op.APIVersion, op.ObjKind, op.Name, op.Namespace = obj, apiVersion, kind, name, namespace
	return op, nil
}

// objectField reads a field that is a non-empty object or a YAML/JSON
// string of one.
func objectField(key string, v any) (map[string]any, error) {
	if s, ok := v.(string); ok {
		var parsed any
		if err := yaml.Unmarshal([]byte(s), &parsed); err != nil {
			return nil, fmt.Errorf("field %q: not YAML or JSON: %w", key, err)
		}
		v = parsed
	}
	if v == nil {
		return nil, fmt.Errorf("field %q is required", key)
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("field %q: want an object, got %s", key, typeName(v))
	}
	if len(obj) == 0 {
		return nil, fmt.Errorf("field %q: the object is empty", key)
	}
	return obj, nil
}

// withJQ checks that the filter compiles, so that a broken filter fails the
// file before anything is applied.
func withJQ(op Operation) (Operation, error) {
	if err := needTarget(op); err != nil {
		return Operation{}, err
	}
	if op.JQFilter == "" {
		return Operation{}, fmt.Errorf("field \"jqFilter\" is required for %s", op.Op)
	}
	if _, err := compileJQ(op.JQFilter); err != nil {
		return Operation{}, fmt.Errorf("field \"jqFilter\": %w", err)
	}
	return op, nil
}

func compileJQ(filter string) (*gojq.Code, error) {
	q, err := gojq.Parse(filter)
	if err != nil {
		return nil, err
	}
	return gojq.Compile(q)
}

func withMergePatch(op Operation, v any) (Operation, error) {
	if err := needTarget(op); err != nil {
		return Operation{}, err
	}
	obj, err := objectField("mergePatch", v)
	if err != nil {
		return Operation{}, err
	}
	if op.MergePatch, err = json.Marshal(obj); err != nil {
		return Operation{}, fmt.Errorf("field \"mergePatch\": %w", err)
	}
	return op, nil
}

// withJSONPatch reads an RFC 6902 patch: a non-empty array of operations,
// or a JSON/YAML string of one. Written as an array, its first operation
// must carry value (even remove's), as shell-operator's schema says; the
// string form is not checked against that schema, so it need not.
func withJSONPatch(op Operation, v any) (Operation, error) {
	if err := needTarget(op); err != nil {
		return Operation{}, err
	}
	if first, ok := firstItem(v); ok {
		if _, hasValue := first["value"]; !hasValue {
			return Operation{}, fmt.Errorf("field \"jsonPatch\": operation 0: value is required " +
				"in the first operation of an array (write the patch as a string to leave it out)")
		}
	}
	if s, ok := v.(string); ok {
		var parsed any
		if err := yaml.Unmarshal([]byte(s), &parsed); err != nil {
			return Operation{}, fmt.Errorf("field \"jsonPatch\": not YAML or JSON: %w", err)
		}
		v = parsed
	}
	items, ok := v.([]any)
	if !ok || len(items) == 0 {
		return Operation{}, fmt.Errorf("field \"jsonPatch\": want a non-empty array of {op, path, value}, got %s", typeName(v))
	}
	for i, it := range items {
		m, ok := it.(map[string]any)
		if _, hasOp := m["op"].(string); !ok || !hasOp {
			return Operation{}, fmt.Errorf("field \"jsonPatch\": operation %d: want an object with op and path", i)
		}
		if _, hasPath := m["path"].(string); !hasPath {
			return Operation{}, fmt.Errorf("field \"jsonPatch\": operation %d: path is required", i)
		}
	}
	data, err := json.Marshal(items)
	if err == nil {
		_, err = jsonpatch.DecodePatch(data)
	}
	if err != nil {
		return Operation{}, fmt.Errorf("field \"jsonPatch\": %w", err)
	}
	op.JSONPatch = data
	return op, nil
}

// firstItem is the first element of v when v is an array whose first
// element is an object.
func firstItem(v any) (map[string]any, bool) {
	items, ok := v.([]any)
	if !ok || len(items) == 0 {
		return nil, false
	}
	first, ok := items[0].(map[string]any)
	return first, ok
}
