package objectpatch

import (
	"fmt"

	"github.com/itchyny/gojq"
)

// runJQ runs code on obj; its first output must be an object.
func runJQ(code *gojq.Code, obj map[string]any) (map[string]any, error) {
	iter := code.Run(obj)
	v, ok := iter.Next()
	if !ok {
		return nil, fmt.Errorf("jqFilter: no output")
	}
	if err, isErr := v.(error); isErr {
		return nil, fmt.Errorf("jqFilter: %w", err)
	}
	out, isObj := v.(map[string]any)
	if !isObj {
		return nil, fmt.Errorf("jqFilter: want an object, got %s", typeName(v))
	}
	return out, nil
}
