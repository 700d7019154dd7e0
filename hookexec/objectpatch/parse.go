package objectpatch

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// allowedKeys are the keys an item may have (UPSTREAM.md §1.9).
var allowedKeys = []string{"operation", "namespace", "subresource", "apiVersion", "kind", "name", "object",
	"jsonPatch", "jqFilter", "mergePatch", "ignoreMissingObject", "ignoreHookError"}

// ErrArray is returned for a file holding a JSON array: the format is a
// stream of objects, and the original rejects an array too.
var ErrArray = errors.New("a JSON array is not accepted: write one JSON object (or YAML document) per operation")

// Parse reads an object patch file: a stream of JSON objects or a
// multi-document YAML. Empty means no operations. The first invalid item
// fails the whole file, with an error naming its index (from 0) and field.
func Parse(data []byte) ([]Operation, error) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return nil, nil
	}
	if trimmed[0] == '[' {
		return nil, ErrArray
	}
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(trimmed), 4096)
	var ops []Operation
	for {
		var doc any
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			return ops, nil
		}
		if err != nil {
			return nil, fmt.Errorf("item %d: %w", len(ops), err)
		}
		if doc == nil {
			continue // an empty YAML document
		}
		item, ok := doc.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("item %d: want an object, got %s", len(ops), typeName(doc))
		}
		op, err := parseItem(len(ops), item)
		if err != nil {
			return nil, fmt.Errorf("item %d: %w", len(ops), err)
		}
		ops = append(ops, op)
	}
}

// parseItem validates one item and fills in its Operation.
func parseItem(index int, item map[string]any) (Operation, error) {
	for key := range item {
		if !slices.Contains(allowedKeys, key) {
			return Operation{}, fmt.Errorf("unknown field %q (allowed: %s)", key, strings.Join(allowedKeys, ", "))
		}
	}
	r := reader{item: item}
	op := Operation{Index: index, Op: Kind(r.str("operation")), APIVersion: r.str("apiVersion"),
		ObjKind: r.str("kind"), Namespace: r.str("namespace"), Name: r.str("name"),
		Subresource: r.str("subresource"), JQFilter: r.str("jqFilter"),
		IgnoreMissingObject: r.boolean("ignoreMissingObject"), IgnoreHookError: r.boolean("ignoreHookError")}
	if r.err != nil {
		return Operation{}, r.err
	}
	if op.Op == "" {
		return Operation{}, fmt.Errorf("field \"operation\" is required (one of %s)", kindList())
	}
	switch op.Op {
	case Create, CreateIfNotExists, CreateOrUpdate:
		return withObject(op, item["object"])
	case Delete, DeleteInBackground, DeleteNonCascading:
		return op, needTarget(op)
	case JQPatch:
		return withJQ(op)
	case MergePatch:
		return withMergePatch(op, item["mergePatch"])
	case JSONPatch:
		return withJSONPatch(op, item["jsonPatch"])
	}
	return Operation{}, fmt.Errorf("field \"operation\": unknown operation %q (one of %s)", op.Op, kindList())
}

func kindList() string {
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = string(k)
	}
	return strings.Join(names, ", ")
}

// needTarget checks the fields a delete or patch needs.
func needTarget(op Operation) error {
	if op.ObjKind == "" {
		return fmt.Errorf("field \"kind\" is required for %s", op.Op)
	}
	if op.Name == "" {
		return fmt.Errorf("field \"name\" is required for %s", op.Op)
	}
	return nil
}

// reader reads typed fields of an item, keeping the first error.
type reader struct {
	item map[string]any
	err  error
}

func (r *reader) str(key string) string {
	v, ok := r.item[key]
	if !ok || v == nil {
		return ""
	}
	s, ok := v.(string)
	if !ok && r.err == nil {
		r.err = fmt.Errorf("field %q: want a string, got %s", key, typeName(v))
	}
	return s
}

func (r *reader) boolean(key string) bool {
	v, ok := r.item[key]
	if !ok || v == nil {
		return false
	}
	b, ok := v.(bool)
	if !ok && r.err == nil {
		r.err = fmt.Errorf("field %q: want true or false, got %s", key, typeName(v))
	}
	return b
}

func typeName(v any) string {
	switch v.(type) {
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case float64, int64, json.Number:
		return "a number"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", v)
}
