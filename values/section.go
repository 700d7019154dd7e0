package values

import "fmt"

// A section is what lies under one root key of the values: "global" or a
// module's values key. The global section is always a map. A module section
// is a map or a list (spec/MODULES.md: "a map or an array"; spec/VALUES.md:
// "a list (including empty list)"), held as map[string]any or []any; both
// are typed any where a module section may appear.

// globalSection accepts a map, or null (an empty section).
func globalSection(v any) (map[string]any, error) {
	switch x := v.(type) {
	case nil:
		return map[string]any{}, nil
	case map[string]any:
		if x == nil {
			return map[string]any{}, nil
		}
		return x, nil
	}
	return nil, fmt.Errorf("%w: want a map, got %s", ErrInvalidSection, describeKind(v))
}

// moduleSection accepts a map, a list, or null (an empty map).
func moduleSection(v any) (any, error) {
	if list, ok := v.([]any); ok {
		if list == nil {
			return []any{}, nil
		}
		return list, nil
	}
	if m, err := globalSection(v); err == nil {
		return m, nil
	}
	return nil, fmt.Errorf("%w: want a map or a list, got %s", ErrInvalidSection, describe(v))
}

// MergeSections merges the layers of one section, low to high, into a new
// value that shares nothing with them. Maps merge deeply as in [Merge]; a
// list replaces what is below it, and a map over a list replaces it. An
// empty section (nil, or an empty map: a key that is absent or null) gives
// no values, so it never hides a list below it; an empty list does. The
// result is never nil: no values at all is an empty map.
func MergeSections(layers ...any) any {
	var out any
	for _, layer := range layers {
		switch x := layer.(type) {
		case map[string]any:
			if len(x) == 0 {
				continue
			}
			if m, ok := out.(map[string]any); ok {
				mergeInto(m, x)
				continue
			}
			out = copyMap(x)
		case []any:
			out = DeepCopy(x)
		}
	}
	if out == nil {
		return map[string]any{}
	}
	return out
}

// emptySection tells whether a section gives no values: absent, null or an
// empty map (an empty list is a value).
func emptySection(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case map[string]any:
		return len(x) == 0
	}
	return false
}

// orEmpty is v, or an empty map for an empty section, for the documents
// hooks and helm read (never null there).
func orEmpty(v any) any {
	if emptySection(v) {
		return map[string]any{}
	}
	return v
}
