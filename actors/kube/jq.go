package kube

import (
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"maps"
	"math"
	"math/big"
	"slices"

	"github.com/itchyny/gojq"
)

// runJq runs a binding's jqFilter on an object: one output is the result,
// several are an array, none is null. A panic in gojq becomes an error:
// it runs in informer goroutines, where a panic would end the operator.
func runJq(code *gojq.Code, obj map[string]any) (res json.RawMessage, err error) {
	defer func() {
		if p := recover(); p != nil {
			res, err = nil, fmt.Errorf("jq panicked: %v", p)
		}
	}()
	input, _ := jqValue(obj)
	iter := code.Run(input)
	var out []any
	for {
		v, ok := iter.Next()
		if !ok {
			break
		}
		if e, isErr := v.(error); isErr {
			// The message now, under the recover: gojq builds it lazily.
			return nil, errors.New(e.Error())
		}
		out = append(out, v)
	}
	var value any
	if len(out) == 1 {
		value = out[0]
	} else if len(out) > 1 {
		value = out
	}
	return json.Marshal(value)
}

// jqValue converts what gojq cannot take to what it can: unstructured
// objects hold their integers (spec.replicas, ports, generation) as int64,
// which gojq treats as an invalid type, failing arithmetic and comparing
// wrongly. Containers are copied only on the paths that hold such numbers,
// so an object without them (a ConfigMap) is not copied; the informer's
// object is never changed.
func jqValue(v any) (any, bool) {
	switch x := v.(type) {
	case int64:
		if x >= math.MinInt && x <= math.MaxInt {
			return int(x), true
		}
		return big.NewInt(x), true // 32-bit platforms
	case int32:
		return int(x), true
	case map[string]any:
		return jqEach(x, maps.All(x), maps.Clone, func(m map[string]any, k string, n any) { m[k] = n })
	case []any:
		return jqEach(x, slices.All(x), slices.Clone, func(l []any, i int, n any) { l[i] = n })
	}
	return v, false
}

// jqEach converts the elements of container c (all of them in all): c is
// copied at the first element that changes, and returned as it is when none
// does.
func jqEach[K comparable, C any](c C, all iter.Seq2[K, any], clone func(C) C, set func(C, K, any)) (any, bool) {
	out, copied := c, false
	for k, e := range all {
		if n, changed := jqValue(e); changed {
			if !copied {
				out, copied = clone(c), true
			}
			set(out, k, n)
		}
	}
	return out, copied
}
