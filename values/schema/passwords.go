package schema

import (
	"slices"

	"github.com/go-openapi/spec"

	"github.com/addon-actors/addon-operator/values/mask"
)

// passwordFormat is OpenAPI's hint that a string is to be obscured.
const passwordFormat = "password"

// maxPasswordDepth bounds the walk of a schema that refers to itself.
const maxPasswordDepth = 32

// Passwords are the paths, inside the scope's section, of the values that
// config-values.yaml or values.yaml mark `format: password`: what is masked
// wherever the operator prints or serves values. A nil *Set has none.
func (set *Set) Passwords() mask.Paths {
	if set == nil {
		return nil
	}
	return set.passwords
}

// passwordsOf collects the paths of both schemas, each once.
func passwordsOf(schemas ...*Schema) mask.Paths {
	var out mask.Paths
	for _, s := range schemas {
		if s != nil {
			collectPasswords(s.spec, nil, 0, &out)
		}
	}
	slices.SortFunc(out, func(a, b mask.Path) int { return slices.Compare(a, b) })
	return slices.CompactFunc(out, func(a, b mask.Path) bool { return slices.Equal(a, b) })
}

// collectPasswords walks where values can lie: properties by name;
// patternProperties, additionalProperties and items as any key or index;
// allOf, anyOf and oneOf at the same place.
func collectPasswords(s *spec.Schema, at mask.Path, depth int, out *mask.Paths) {
	if s == nil || depth > maxPasswordDepth {
		return
	}
	if s.Format == passwordFormat {
		*out = append(*out, slices.Clone(at))
		return
	}
	next := func(child *spec.Schema, step string) {
		collectPasswords(child, append(at[:len(at):len(at)], step), depth+1, out)
	}
	for name, p := range s.Properties {
		next(&p, name)
	}
	for _, p := range s.PatternProperties {
		next(&p, mask.Any)
	}
	if s.AdditionalProperties != nil {
		next(s.AdditionalProperties.Schema, mask.Any)
	}
	if s.Items != nil {
		next(s.Items.Schema, mask.Any)
		for i := range s.Items.Schemas {
			next(&s.Items.Schemas[i], mask.Any)
		}
	}
	for _, list := range [][]spec.Schema{s.AllOf, s.AnyOf, s.OneOf} {
		for i := range list {
			collectPasswords(&list[i], at, depth+1, out)
		}
	}
}
