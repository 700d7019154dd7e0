package hookexec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	jsonpatch "github.com/evanphx/json-patch/v5"
)

// PatchScope is what a hook's patches may touch: paths under RootKey
// ("global" for a global hook, the module's camelCase values key for a module
// hook; the caller computes it), and with AllowEnabledKeys (global hooks) the
// top-level `<moduleCamel>Enabled` keys.
type PatchScope struct {
	RootKey          string
	AllowEnabledKeys bool
}

// ParsePatch reads a patch file: a JSON array of RFC 6902 operations, or a
// stream of such arrays and single operation objects (what `jq -c` and
// `echo >>` produce). An empty file is no patch. Every operation must be one
// of add, remove, replace, move, copy, test, have a path starting with "/",
// and stay inside scope.
func ParsePatch(data []byte, scope PatchScope) (jsonpatch.Patch, error) {
	var patch jsonpatch.Patch
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if errors.Is(err, io.EOF) {
			return patch, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%w: operation %d: %v", ErrBadPatch, len(patch), err)
		}
		ops, err := decodeOps(raw, len(patch))
		if err != nil {
			return nil, err
		}
		for i, op := range ops {
			if err := checkOp(op, scope); err != nil {
				return nil, fmt.Errorf("operation %d: %w", len(patch)+i, err)
			}
		}
		patch = append(patch, ops...)
	}
}

// decodeOps reads one JSON value of the stream: an array of operations or
// one operation. first is the index of its first operation, for errors.
func decodeOps(raw json.RawMessage, first int) (jsonpatch.Patch, error) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) > 0 && trimmed[0] == '{' {
		var op jsonpatch.Operation
		if err := json.Unmarshal(trimmed, &op); err != nil {
			return nil, fmt.Errorf("%w: operation %d: %v", ErrBadPatch, first, err)
		}
		return jsonpatch.Patch{op}, nil
	}
	var ops jsonpatch.Patch
	if err := json.Unmarshal(trimmed, &ops); err != nil {
		return nil, fmt.Errorf("%w: operation %d: want an array of operations or an operation object, got %.60s", ErrBadPatch, first, trimmed)
	}
	return ops, nil
}

func checkOp(op jsonpatch.Operation, scope PatchScope) error {
	kind := op.Kind()
	switch kind {
	case "add", "remove", "replace", "move", "copy", "test":
	default:
		return fmt.Errorf("%w: op %q: want add, remove, replace, move, copy or test", ErrBadPatch, kind)
	}
	path, err := op.Path()
	if err != nil {
		return fmt.Errorf("%w: %s: path: %v", ErrBadPatch, kind, err)
	}
	if err := checkPath(kind, "path", path, scope); err != nil {
		return err
	}
	if _, hasValue := op["value"]; !hasValue && (kind == "add" || kind == "replace" || kind == "test") {
		return fmt.Errorf("%w: %s %q: no value", ErrBadPatch, kind, path)
	}
	if kind == "move" || kind == "copy" {
		from, err := op.From()
		if err != nil {
			return fmt.Errorf("%w: %s: from: %v", ErrBadPatch, kind, err)
		}
		return checkPath(kind, "from", from, scope)
	}
	return nil
}

func checkPath(kind, field, path string, scope PatchScope) error {
	if path == "" {
		return fmt.Errorf("%w: %s %s \"\" is the whole values document: this hook may only change /%s", ErrPatchScope, kind, field, scope.RootKey)
	}
	if !strings.HasPrefix(path, "/") {
		return fmt.Errorf("%w: %s %s %q must start with \"/\" (a JSON pointer such as \"/%s/key\")", ErrBadPatch, kind, field, path, scope.RootKey)
	}
	first, rest, _ := strings.Cut(path[1:], "/")
	key := unescapePointer(first)
	if key == scope.RootKey && key != "" {
		return nil
	}
	if scope.AllowEnabledKeys && rest == "" && strings.HasSuffix(key, "Enabled") && len(key) > len("Enabled") {
		return nil
	}
	allowed := fmt.Sprintf("/%s", scope.RootKey)
	if scope.AllowEnabledKeys {
		allowed += " or /<module>Enabled"
	}
	return fmt.Errorf("%w: %s %s %q: this hook may only change %s", ErrPatchScope, kind, field, path, allowed)
}

func unescapePointer(s string) string {
	if !strings.Contains(s, "~") {
		return s
	}
	return strings.NewReplacer("~1", "/", "~0", "~").Replace(s)
}
