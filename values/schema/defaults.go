package schema

import (
	"regexp"

	"github.com/go-openapi/spec"

	"github.com/addon-actors/addon-operator/values"
)

// defaults is the part of a schema that sets defaults, compiled once: only
// the branches with a default somewhere below them are kept, so applying it
// walks little more than the values that can get one.
type defaults struct {
	// values holds the default of each property that has one.
	values map[string]any
	// props, patterns, additional and items lead to nested defaults.
	props      map[string]*defaults
	patterns   []patternDefaults
	additional *defaults
	items      *defaults
	// allOf lists the defaults of allOf members, which apply to the same value.
	allOf []*defaults
}

type patternDefaults struct {
	re   *regexp.Regexp
	next *defaults
}

// compileDefaults returns nil for a schema that sets no default anywhere.
func compileDefaults(s *spec.Schema) *defaults {
	if s == nil {
		return nil
	}
	d := &defaults{}
	for name, prop := range s.Properties {
		if prop.Default != nil {
			d.setDefault(name, prop.Default)
		}
		if next := compileDefaults(&prop); next != nil {
			d.setProp(name, next)
		}
	}
	for pattern, prop := range s.PatternProperties {
		re, err := regexp.Compile(pattern)
		if next := compileDefaults(&prop); next != nil && err == nil {
			d.patterns = append(d.patterns, patternDefaults{re: re, next: next})
		}
	}
	if s.AdditionalProperties != nil {
		d.additional = compileDefaults(s.AdditionalProperties.Schema)
	}
	if s.Items != nil {
		d.items = compileDefaults(s.Items.Schema)
	}
	for i := range s.AllOf {
		if next := compileDefaults(&s.AllOf[i]); next != nil {
			d.allOf = append(d.allOf, next)
		}
	}
	if d.values == nil && d.props == nil && d.patterns == nil && d.additional == nil && d.items == nil && d.allOf == nil {
		return nil
	}
	return d
}

func (d *defaults) setDefault(name string, v any) {
	if d.values == nil {
		d.values = map[string]any{}
	}
	d.values[name] = v
}

func (d *defaults) setProp(name string, next *defaults) {
	if d.props == nil {
		d.props = map[string]*defaults{}
	}
	d.props[name] = next
}

// apply sets, in place, the default of every property v lacks, and descends
// into the values v has. A default is only set where a key is absent;
// present values, null included, are kept. Defaults set here are then
// descended into as well, so a defaulted object gets its own defaults.
func (d *defaults) apply(v any) {
	if d == nil {
		return
	}
	switch x := v.(type) {
	case map[string]any:
		d.applyObject(x)
	case []any:
		for _, e := range x {
			d.items.apply(e)
		}
	}
	for _, member := range d.allOf {
		member.apply(v)
	}
}

func (d *defaults) applyObject(obj map[string]any) {
	for name, def := range d.values {
		if _, ok := obj[name]; !ok {
			obj[name] = values.DeepCopy(def)
		}
	}
	if d.props == nil && d.patterns == nil && d.additional == nil {
		return
	}
	for key, e := range obj {
		if next, ok := d.props[key]; ok {
			next.apply(e)
			continue
		}
		matched := false
		for _, p := range d.patterns {
			if p.re.MatchString(key) {
				p.next.apply(e)
				matched = true
			}
		}
		if !matched {
			d.additional.apply(e)
		}
	}
}
