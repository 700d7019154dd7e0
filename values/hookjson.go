package values

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
)

// EnabledList is global.enabledModules in a hook's input: the names as
// they are, not a []any of them. encoding/json writes it as it writes a
// []any of the same strings; MarshalDocument writes it without reflection.
// At a thousand modules the list is most of a module hook's $VALUES_PATH,
// and boxing and reflecting over it on every run made the operator's cost
// per hook run grow with the number of modules.
type EnabledList []string

// MarshalDocument is json.Marshal of a hook's input document (HookInput's
// Values or ConfigValues), byte for byte, faster where it can be: the maps
// of the first two levels are written here (their keys sorted as
// encoding/json sorts them), an EnabledList by hand, anything else by
// json.Marshal.
func MarshalDocument(doc map[string]any) ([]byte, error) {
	return appendValue(make([]byte, 0, 512), doc, 2)
}

// appendValue appends v as JSON; depth is how many more levels of maps are
// written here rather than by json.Marshal.
func appendValue(out []byte, v any, depth int) ([]byte, error) {
	switch v := v.(type) {
	case EnabledList:
		return appendNames(out, v)
	case map[string]any:
		if depth > 0 && v != nil {
			return appendMap(out, v, depth-1)
		}
	}
	data, err := json.Marshal(v)
	if err != nil {
		return out, err
	}
	return append(out, data...), nil
}

// appendMap appends m as encoding/json writes a map[string]any.
func appendMap(out []byte, m map[string]any, depth int) ([]byte, error) {
	out = append(out, '{')
	for i, k := range slices.Sorted(maps.Keys(m)) {
		if i > 0 {
			out = append(out, ',')
		}
		var err error
		if out, err = appendValue(append(appendString(out, k), ':'), m[k], depth); err != nil {
			return out, fmt.Errorf("key %q: %w", k, err)
		}
	}
	return append(out, '}'), nil
}

// appendNames appends names as a JSON array of strings (null for nil, as
// encoding/json writes a nil slice).
func appendNames(out []byte, names EnabledList) ([]byte, error) {
	if names == nil {
		return append(out, "null"...), nil
	}
	size := 2
	for _, n := range names {
		size += len(n) + 3
	}
	out = slices.Grow(out, size)
	out = append(out, '[')
	for i, n := range names {
		if i > 0 {
			out = append(out, ',')
		}
		out = appendString(out, n)
	}
	return append(out, ']'), nil
}

// appendString appends s quoted as encoding/json quotes it: as it is when
// nothing in it needs escaping (the usual key or module name), else by
// json.Marshal (its HTML escaping, \u2028 and invalid UTF-8 included).
func appendString(out []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x80 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			data, _ := json.Marshal(s) // a string always encodes
			return append(out, data...)
		}
	}
	out = append(out, '"')
	out = append(out, s...)
	return append(out, '"')
}
