package schema

import (
	"math"
	"regexp"
	"unicode/utf8"

	"github.com/go-openapi/spec"

	"github.com/addon-actors/addon-operator/values"
)

// quick is a compiled subset of a schema that answers one question fast:
// do these values certainly pass? It only ever answers yes when go-openapi
// would; anything it is unsure of is a no, and go-openapi then decides and
// words the errors. A schema using a keyword outside the subset (format,
// multipleOf, uniqueItems, allOf/anyOf/oneOf/not, readOnly, tuples...) gets
// no quick check at all. This exists because go-openapi builds a validator
// per property on every call, which costs about 2 ms for 200 properties.
type quick struct {
	types    []string // empty: any type
	nullable bool
	enum     []any

	minLength, maxLength *int64
	pattern              *regexp.Regexp

	minimum, maximum                   *float64
	exclusiveMinimum, exclusiveMaximum bool

	props              map[string]*quick
	required           []string
	patterns           []quickPattern
	additional         *quick // additionalProperties as a schema
	closed             bool   // additionalProperties: false
	minProps, maxProps *int64
	items              *quick
	minItems, maxItems *int64
}

type quickPattern struct {
	re   *regexp.Regexp
	next *quick
}

// maxExactFloat bounds the numbers the quick check accepts: beyond it,
// go-openapi's integer and range checks are left to decide.
const maxExactFloat = 1 << 53

// compileQuick returns nil when s uses a keyword outside the subset.
func compileQuick(s *spec.Schema) *quick {
	if s == nil || !quickSupports(s) {
		return nil
	}
	q := &quick{types: s.Type, nullable: s.Nullable, enum: s.Enum,
		minLength: s.MinLength, maxLength: s.MaxLength,
		minimum: s.Minimum, maximum: s.Maximum, exclusiveMinimum: s.ExclusiveMinimum, exclusiveMaximum: s.ExclusiveMaximum,
		required: s.Required, minProps: s.MinProperties, maxProps: s.MaxProperties,
		minItems: s.MinItems, maxItems: s.MaxItems}
	var ok bool
	if s.Pattern != "" {
		if q.pattern, ok = compilePattern(s.Pattern); !ok {
			return nil
		}
	}
	if q.props, ok = compileQuickMap(s.Properties); !ok {
		return nil
	}
	for pattern, prop := range s.PatternProperties {
		re, ok := compilePattern(pattern)
		next := compileQuick(&prop)
		if !ok || next == nil {
			return nil
		}
		q.patterns = append(q.patterns, quickPattern{re: re, next: next})
	}
	if !q.compileNested(s) {
		return nil
	}
	return q
}

func (q *quick) compileNested(s *spec.Schema) bool {
	if ap := s.AdditionalProperties; ap != nil {
		if ap.Schema != nil {
			if q.additional = compileQuick(ap.Schema); q.additional == nil {
				return false
			}
		} else {
			q.closed = !ap.Allows
		}
	}
	if s.Items != nil && s.Items.Schema != nil {
		if q.items = compileQuick(s.Items.Schema); q.items == nil {
			return false
		}
	}
	return true
}

func compileQuickMap(props spec.SchemaProperties) (map[string]*quick, bool) {
	if len(props) == 0 {
		return nil, true
	}
	out := make(map[string]*quick, len(props))
	for name, prop := range props {
		if out[name] = compileQuick(&prop); out[name] == nil {
			return nil, false
		}
	}
	return out, true
}

func compilePattern(p string) (*regexp.Regexp, bool) {
	re, err := regexp.Compile(p)
	return re, err == nil
}

func quickSupports(s *spec.Schema) bool {
	if s.Format != "" || s.MultipleOf != nil || s.UniqueItems || s.ReadOnly || s.Discriminator != "" ||
		len(s.AllOf) > 0 || len(s.AnyOf) > 0 || len(s.OneOf) > 0 || s.Not != nil ||
		s.Ref.String() != "" || s.ID != "" || len(s.Dependencies) > 0 || s.AdditionalItems != nil ||
		(s.Items != nil && len(s.Items.Schemas) > 0) {
		return false
	}
	for _, t := range s.Type {
		switch t {
		case "object", "array", "string", "number", "integer", "boolean", "null":
		default:
			return false
		}
	}
	return true
}

// valid reports whether v certainly passes; false means "ask go-openapi".
func (q *quick) valid(v any) bool {
	if v == nil {
		return len(q.enum) == 0 && (len(q.types) == 0 || q.nullable || q.hasType("null"))
	}
	if !q.typeMatches(v) || !q.inEnum(v) {
		return false
	}
	switch x := v.(type) {
	case string:
		return q.validString(x)
	case float64:
		return q.validNumber(x)
	case map[string]any:
		return q.validObject(x)
	case []any:
		return q.validList(x)
	}
	return true
}

func (q *quick) hasType(t string) bool {
	for _, have := range q.types {
		if have == t {
			return true
		}
	}
	return false
}

func (q *quick) typeMatches(v any) bool {
	if len(q.types) == 0 {
		return true
	}
	switch x := v.(type) {
	case string:
		return q.hasType("string")
	case bool:
		return q.hasType("boolean")
	case float64:
		integral := x == math.Trunc(x)
		return math.Abs(x) < maxExactFloat && (q.hasType("number") || integral && q.hasType("integer"))
	case map[string]any:
		return q.hasType("object")
	case []any:
		return q.hasType("array")
	}
	return false
}

func (q *quick) inEnum(v any) bool {
	if len(q.enum) == 0 {
		return true
	}
	for _, e := range q.enum {
		if values.Equal(e, v) {
			return true
		}
	}
	return false
}

func (q *quick) validString(s string) bool {
	if q.minLength != nil || q.maxLength != nil {
		n := int64(utf8.RuneCountInString(s))
		if q.minLength != nil && n < *q.minLength || q.maxLength != nil && n > *q.maxLength {
			return false
		}
	}
	return q.pattern == nil || q.pattern.MatchString(s)
}

func (q *quick) validNumber(f float64) bool {
	if math.Abs(f) >= maxExactFloat {
		return false
	}
	if q.minimum != nil && (f < *q.minimum || q.exclusiveMinimum && f == *q.minimum) {
		return false
	}
	return q.maximum == nil || !(f > *q.maximum || q.exclusiveMaximum && f == *q.maximum)
}

func (q *quick) validObject(obj map[string]any) bool {
	n := int64(len(obj))
	if q.minProps != nil && n < *q.minProps || q.maxProps != nil && n > *q.maxProps {
		return false
	}
	for _, name := range q.required {
		if _, ok := obj[name]; !ok {
			return false
		}
	}
	for key, e := range obj {
		if !q.validMember(key, e) {
			return false
		}
	}
	return true
}

func (q *quick) validMember(key string, v any) bool {
	prop, known := q.props[key]
	if known && !prop.valid(v) {
		return false
	}
	matched := false
	for _, p := range q.patterns {
		if p.re.MatchString(key) {
			matched = true
			if !p.next.valid(v) {
				return false
			}
		}
	}
	switch {
	case known || matched:
		return true
	case q.closed:
		return false
	case q.additional != nil:
		return q.additional.valid(v)
	}
	return true
}

func (q *quick) validList(list []any) bool {
	n := int64(len(list))
	if q.minItems != nil && n < *q.minItems || q.maxItems != nil && n > *q.maxItems {
		return false
	}
	if q.items != nil {
		for _, e := range list {
			if !q.items.valid(e) {
				return false
			}
		}
	}
	return true
}
