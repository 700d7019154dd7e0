package configmap

import (
	"errors"
	"fmt"
	"maps"

	jsonpatch "github.com/evanphx/json-patch/v5"
	"sigs.k8s.io/yaml"

	"github.com/addon-actors/addon-operator/values"
)

// ErrUnknownKey is returned for a config patch that addresses a root key
// which is neither "global", a module's values key nor an enabled key.
var ErrUnknownKey = errors.New("config patch addresses an unknown key")

// ApplyPatch writes a hook's config patch into ConfigMap data and returns new
// data; data is not changed, so the config actor can re-run it on a fresher
// copy after a write conflict. Only the keys the patch addresses are parsed
// and rewritten (as YAML, or "true"/"false" for enabled keys); every other
// key, understood or not, is kept byte for byte. changed is false when the
// patch leaves every value as it was, and no write is needed. A missing
// ConfigMap is nil data: the result is the data to create it with.
func ApplyPatch(data map[string]string, p jsonpatch.Patch) (out map[string]string, changed bool, err error) {
	roots, err := values.PatchRoots(p)
	if err != nil {
		return nil, false, fmt.Errorf("config patch: %w", err)
	}
	doc := map[string]any{}
	for _, key := range roots {
		if !understood(key) {
			return nil, false, fmt.Errorf("config patch: key %q is not \"global\", a module's values key or an "+
				"enabled key: %w", key, ErrUnknownKey)
		}
		if raw, ok := data[key]; ok {
			if doc[key], err = decodeKey(key, raw); err != nil {
				return nil, false, fmt.Errorf("config patch: ConfigMap key %q: %w", key, err)
			}
		}
	}
	patched, err := values.ApplyPatch(doc, p)
	if err != nil {
		return nil, false, fmt.Errorf("config patch: %w", err)
	}
	out = maps.Clone(data)
	if out == nil {
		out = map[string]string{}
	}
	for _, key := range roots {
		keyChanged, err := writeKey(out, key, doc, patched)
		if err != nil {
			return nil, false, fmt.Errorf("config patch: ConfigMap key %q: %w", key, err)
		}
		changed = changed || keyChanged
	}
	return out, changed, nil
}

// writeKey stores the patched value of key in out, unless it equals the
// value before.
func writeKey(out map[string]string, key string, before, after map[string]any) (bool, error) {
	old, had := before[key]
	v, has := after[key]
	switch {
	case !has && !had:
		return false, nil
	case !has:
		delete(out, key)
		return true, nil
	case had && values.Equal(old, v):
		return false, nil
	}
	raw, err := encodeKey(key, v)
	if err != nil {
		return false, err
	}
	out[key] = raw
	return true, nil
}

// encodeKey is the inverse of decodeKey, refusing values the ConfigMap
// cannot hold under key.
func encodeKey(key string, v any) (string, error) {
	if _, ok := values.ModuleKeyOfEnabledKey(key); ok {
		switch v {
		case true, "true":
			return "true", nil
		case false, "false":
			return "false", nil
		}
		return "", fmt.Errorf("%w: want true or false, got %v", values.ErrInvalidSection, v)
	}
	if key != values.GlobalKey && (v == false || v == "false") {
		return "false", nil
	}
	if v == nil {
		v = map[string]any{}
	}
	if err := checkSectionKind(key, v); err != nil {
		return "", err
	}
	raw, err := yaml.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("encode YAML: %w", err)
	}
	return string(raw), nil
}

// checkSectionKind refuses what the key cannot hold: global is a map, a
// module section a map or a list.
func checkSectionKind(key string, v any) error {
	switch v.(type) {
	case map[string]any:
		return nil
	case []any:
		if key != values.GlobalKey {
			return nil
		}
		return fmt.Errorf("%w: want a map, got a list", values.ErrInvalidSection)
	}
	if key == values.GlobalKey {
		return fmt.Errorf("%w: want a map, got %T", values.ErrInvalidSection, v)
	}
	return fmt.Errorf("%w: want a map or a list, got %T", values.ErrInvalidSection, v)
}
