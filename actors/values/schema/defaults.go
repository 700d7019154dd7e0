package schema

import (
	"regexp"

	"github.com/go-openapi/spec"

	"github.com/addon-actors/addon-operator/actors/values"
)

// applyDefaults sets, in place, the default of every property of s that v
// lacks, and descends into the values v has: properties, patternProperties,
// additionalProperties, items and allOf. A default is only ever set where a
// key is absent; present values, null included, are kept.
func applyDefaults(s *spec.Schema, v any) {
	if s == nil {
		return
	}
	switch x := v.(type) {
	case map[string]any:
		defaultProperties(s, x)
	case []any:
		if s.Items != nil && s.Items.Schema != nil {
			for _, e := range x {
				applyDefaults(s.Items.Schema, e)
			}
		}
	}
	for i := range s.AllOf {
		applyDefaults(&s.AllOf[i], v)
	}
}

func defaultProperties(s *spec.Schema, obj map[string]any) {
	for name, prop := range s.Properties {
		if _, ok := obj[name]; !ok && prop.Default != nil {
			obj[name] = values.DeepCopy(prop.Default)
		}
	}
	for key, e := range obj {
		if prop, ok := s.Properties[key]; ok {
			applyDefaults(&prop, e)
			continue
		}
		if matched := defaultPatternProperties(s, key, e); matched {
			continue
		}
		if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
			applyDefaults(s.AdditionalProperties.Schema, e)
		}
	}
}

func defaultPatternProperties(s *spec.Schema, key string, v any) bool {
	matched := false
	for pattern, prop := range s.PatternProperties {
		// Compiled per call: patternProperties are rare in values schemas, and
		// the validator has already reported a pattern that does not compile.
		if re, err := regexp.Compile(pattern); err == nil && re.MatchString(key) {
			applyDefaults(&prop, v)
			matched = true
		}
	}
	return matched
}
