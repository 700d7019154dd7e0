package schema

import (
	"encoding/json"
	"fmt"
	"maps"
	"strings"

	"github.com/go-openapi/spec"
)

// extendTarget returns the file named by x-extend.schema, or "" when the
// schema does not extend another.
func extendTarget(file string, s *spec.Schema) (string, error) {
	raw, ok := s.Extensions[extendKey]
	if !ok {
		return "", nil
	}
	settings, ok := raw.(map[string]any)
	if !ok {
		return "", fmt.Errorf("%s: %w: want a map with a \"schema\" key, got %v", file, ErrExtend, raw)
	}
	target, ok := settings["schema"].(string)
	if !ok || target == "" {
		return "", fmt.Errorf("%s: %w: \"schema\" must name a file, got %v", file, ErrExtend, settings["schema"])
	}
	return target, nil
}

// extend adds parent's definitions, required, properties, patternProperties,
// title, description and x-* keys to s. What s defines itself wins.
func extend(s, parent *spec.Schema) {
	s.Definitions = mergeSchemaMaps(parent.Definitions, s.Definitions)
	s.Properties = mergeSchemaMaps(parent.Properties, s.Properties)
	s.PatternProperties = mergeSchemaMaps(parent.PatternProperties, s.PatternProperties)
	s.Required = union(parent.Required, s.Required)
	if s.Title == "" {
		s.Title = parent.Title
	}
	if s.Description == "" {
		s.Description = parent.Description
	}
	for k, v := range parent.Extensions {
		if _, own := s.Extensions[k]; !own && strings.HasPrefix(strings.ToLower(k), "x-") && k != extendKey {
			s.AddExtension(k, v)
		}
	}
}

func mergeSchemaMaps[M ~map[string]spec.Schema](low, high M) M {
	if len(low) == 0 && len(high) == 0 {
		return high
	}
	out := make(M, len(low)+len(high))
	maps.Copy(out, low)
	maps.Copy(out, high)
	return out
}

// union keeps a's order, then b's names that a lacks.
func union(a, b []string) []string {
	if len(b) == 0 {
		return a
	}
	out := append([]string(nil), a...)
	for _, n := range b {
		if !contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

// closeRoot sets additionalProperties: false at the root when the schema
// says nothing about it.
func closeRoot(s *spec.Schema) {
	if s.AdditionalProperties == nil {
		s.AdditionalProperties = &spec.SchemaOrBool{Allows: false}
	}
}

// requireForHelm merges x-required-for-helm into required, at s and in every
// nested property schema.
func requireForHelm(s *spec.Schema) {
	s.Required = union(s.Required, requiredForHelm(s.Extensions))
	for name, prop := range s.Properties {
		requireForHelm(&prop)
		s.Properties[name] = prop
	}
}

func requiredForHelm(ext spec.Extensions) []string {
	if one, ok := ext.GetString(requiredForHelmKey); ok {
		return []string{one}
	}
	list, _ := ext.GetStringSlice(requiredForHelmKey)
	return list
}

// dropConsumed removes the extension keys that compiling has acted on, so the
// effective schema reads as spec/VALUES.md shows it.
func dropConsumed(s *spec.Schema) {
	delete(s.Extensions, extendKey)
	delete(s.Extensions, requiredForHelmKey)
	for name, prop := range s.Properties {
		dropConsumed(&prop)
		s.Properties[name] = prop
	}
}

// deepCopy copies a schema through JSON, which is how spec.Schema round-trips.
func deepCopy(s *spec.Schema) (*spec.Schema, error) {
	raw, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	out := new(spec.Schema)
	if err := json.Unmarshal(raw, out); err != nil {
		return nil, err
	}
	return out, nil
}
