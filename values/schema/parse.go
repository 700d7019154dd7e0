package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/go-openapi/spec"
	"sigs.k8s.io/yaml"
)

var (
	// ErrInvalidSchema is returned for a schema file that is not a valid
	// OpenAPI schema.
	ErrInvalidSchema = errors.New("invalid OpenAPI schema")
	// ErrExtend is returned when x-extend is malformed or names a schema that
	// cannot be found.
	ErrExtend = errors.New("invalid x-extend")
)

const (
	extendKey          = "x-extend"
	requiredForHelmKey = "x-required-for-helm"
)

// parseSchema reads one schema file (YAML or JSON) and expands its local $refs.
func parseSchema(file string, data []byte) (*spec.Schema, error) {
	raw, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w: %v", file, ErrInvalidSchema, err)
	}
	var doc any
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w: %v", file, ErrInvalidSchema, err)
	}
	if _, ok := doc.(map[string]any); !ok {
		return nil, fmt.Errorf("%s: %w: the document is not a map", file, ErrInvalidSchema)
	}
	if err := checkSchema(doc, ""); err != nil {
		return nil, fmt.Errorf("%s: %w: %v", file, ErrInvalidSchema, err)
	}
	s := new(spec.Schema)
	if err := json.Unmarshal(raw, s); err != nil {
		return nil, fmt.Errorf("%s: %w: %v", file, ErrInvalidSchema, err)
	}
	if err := spec.ExpandSchema(s, s, nil); err != nil {
		return nil, fmt.Errorf("%s: %w: expand $ref: %v", file, ErrInvalidSchema, err)
	}
	return s, nil
}

// checkSchema catches what unmarshalling into spec.Schema lets through:
// unknown type names, and $refs outside the file, which would be loaded from
// wherever the process happens to run. It walks only schema positions, so a
// property that happens to be called "type" is a name, not a keyword.
func checkSchema(node any, at string) error {
	m, ok := node.(map[string]any)
	if !ok {
		return nil // booleans (additionalProperties: false) and malformed nodes, which unmarshal reports
	}
	if ref, ok := m["$ref"].(string); ok && !strings.HasPrefix(ref, "#") {
		return fmt.Errorf("%s: $ref %q: only references inside the file (#/...) are supported", at, ref)
	}
	if t, ok := m["type"]; ok {
		if err := checkType(t, at); err != nil {
			return err
		}
	}
	for _, k := range []string{"properties", "patternProperties", "definitions"} {
		children, _ := m[k].(map[string]any)
		for name, child := range children {
			if err := checkSchema(child, at+"/"+k+"/"+name); err != nil {
				return err
			}
		}
	}
	for _, k := range []string{"items", "allOf", "anyOf", "oneOf"} {
		if list, ok := m[k].([]any); ok {
			for i, child := range list {
				if err := checkSchema(child, fmt.Sprintf("%s/%s/%d", at, k, i)); err != nil {
					return err
				}
			}
		}
	}
	for _, k := range []string{"items", "not", "additionalProperties", "additionalItems"} {
		if err := checkSchema(m[k], at+"/"+k); err != nil {
			return err
		}
	}
	return nil
}

func checkType(v any, at string) error {
	names, ok := v.([]any)
	if !ok {
		names = []any{v}
	}
	for _, n := range names {
		switch n {
		case "object", "array", "string", "number", "integer", "boolean", "null":
		default:
			return fmt.Errorf("%s/type: %v is not a JSON schema type", at, n)
		}
	}
	return nil
}
