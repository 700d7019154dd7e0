package values

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"maps"
	"reflect"
	"slices"
)

// ErrNotJSON is returned when a value cannot be represented as JSON.
var ErrNotJSON = errors.New("value is not JSON-compatible")

// Normalize returns v using only the types a JSON decoder produces
// (map[string]any, []any, string, float64, bool, nil). Other numeric types
// become float64 and other values take a JSON round trip; anything JSON cannot
// hold is an [ErrNotJSON] error.
func Normalize(v any) (any, error) {
	switch x := v.(type) {
	case nil, string, float64, bool:
		return x, nil
	case map[string]any:
		out := make(map[string]any, len(x))
		return keep(out, normalizeEach(maps.All(x), "key %q", func(k string, n any) { out[k] = n }))
	case []any:
		out := make([]any, len(x))
		return keep(out, normalizeEach(slices.All(x), "index %d", func(i int, n any) { out[i] = n }))
	case int:
		return float64(x), nil
	case int64:
		return float64(x), nil
	case float32:
		return float64(x), nil
	case json.Number:
		f, err := x.Float64()
		if err != nil {
			return nil, fmt.Errorf("%w: number %s: %v", ErrNotJSON, x, err)
		}
		return f, nil
	}
	return roundTrip(v)
}

// normalizeEach normalizes each element of a container into put; an error
// names the element's key or index with where.
func normalizeEach[K comparable](all iter.Seq2[K, any], where string, put func(K, any)) error {
	for k, e := range all {
		n, err := Normalize(e)
		if err != nil {
			return fmt.Errorf(where+": %w", k, err)
		}
		put(k, n)
	}
	return nil
}

// keep returns out, or nothing with err.
func keep(out any, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	return out, nil
}

func roundTrip(v any) (out any, err error) {
	raw, err := json.Marshal(v)
	if err == nil {
		err = json.Unmarshal(raw, &out)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %T: %v", ErrNotJSON, v, err)
	}
	return out, nil
}

// DeepCopy copies maps and lists of a normalized value; scalars are shared.
func DeepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		return copyMap(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = DeepCopy(e)
		}
		return out
	}
	return v
}

func copyMap(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	out := make(map[string]any, len(m))
	for k, e := range m {
		out[k] = DeepCopy(e)
	}
	return out
}

// Merge merges layers, low to high, into a new map: maps merge deeply, lists
// and scalars (null too) from a higher layer replace. The inputs are not
// changed and share nothing with the result. Nil layers are skipped.
func Merge(layers ...map[string]any) map[string]any {
	out := map[string]any{}
	for _, layer := range layers {
		mergeInto(out, layer)
	}
	return out
}

// mergeInto merges src into dst, which must be owned by the caller.
func mergeInto(dst, src map[string]any) {
	for k, v := range src {
		srcMap, srcIsMap := v.(map[string]any)
		dstMap, dstIsMap := dst[k].(map[string]any)
		if srcIsMap && dstIsMap {
			mergeInto(dstMap, srcMap)
			continue
		}
		dst[k] = DeepCopy(v)
	}
}

// Checksum is a stable digest of a normalized value: equal values (whatever
// their key order or source formatting) have equal checksums.
func Checksum(v any) string {
	raw, err := json.Marshal(v)
	if err != nil {
		// Only a value that skipped Normalize can get here; its digest still
		// has to differ from every valid one.
		raw = []byte(fmt.Sprintf("invalid:%T:%v", v, err))
	}
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:])
}

// Equal reports whether two normalized values are the same JSON value.
func Equal(a, b any) bool {
	return reflect.DeepEqual(a, b)
}
