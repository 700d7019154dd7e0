package schema

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	oaerrors "github.com/go-openapi/errors"
	"github.com/go-openapi/spec"
	"github.com/go-openapi/strfmt"
	"github.com/go-openapi/validate"
)

// ErrInvalidValues is matched (errors.Is) by every *ValidationError.
var ErrInvalidValues = errors.New("values do not match the schema")

// Schema is one compiled schema. It is safe for concurrent use: its $refs
// are expanded when it is compiled, so validation only reads it.
type Schema struct {
	file     string
	key      string
	spec     *spec.Schema
	defaults *defaults
	quick    *quick // nil: the schema is outside the quick subset

	// validator is go-openapi's, built on first need: building it copies the
	// whole schema, and values that pass the quick check never need it.
	once      sync.Once
	validator *validate.SchemaValidator
}

// newSchema compiles s; its validator reports paths under /key.
func newSchema(file, key string, s *spec.Schema) *Schema {
	return &Schema{file: file, key: key, spec: s, defaults: compileDefaults(s), quick: compileQuick(s)}
}

func (s *Schema) goOpenAPI() *validate.SchemaValidator {
	s.once.Do(func() {
		s.validator = validate.NewSchemaValidator(s.spec, nil, s.key, strfmt.Default,
			validate.WithSkipSchemataResult(true))
	})
	return s.validator
}

// File names the schema in messages ("modules/001-a/openapi/values.yaml").
func (s *Schema) File() string { return s.file }

// Spec returns a copy of the effective schema.
func (s *Schema) Spec() (*spec.Schema, error) { return deepCopy(s.spec) }

// Validate checks one section of values (what lies under the scope's root
// key) and returns a *ValidationError naming scope on failure.
func (s *Schema) Validate(scope string, section any) error {
	if s == nil || s.quick != nil && s.quick.valid(section) {
		return nil
	}
	res := s.goOpenAPI().Validate(section)
	if res.IsValid() {
		return nil
	}
	verr := &ValidationError{Scope: scope, Schema: s.file}
	for _, located := range res.LocatedErrors() {
		verr.Violations = append(verr.Violations, violationOf(located))
	}
	sort.Slice(verr.Violations, func(i, j int) bool {
		a, b := verr.Violations[i], verr.Violations[j]
		return a.Path < b.Path || a.Path == b.Path && a.Message < b.Message
	})
	return verr
}

// ValidationError lists what values broke in one schema.
type ValidationError struct {
	// Scope is "global" or `module "name"`.
	Scope string
	// Schema is the schema file, with " (for helm)" when x-required-for-helm applied.
	Schema     string
	Violations []Violation
}

// Violation is one broken rule.
type Violation struct {
	// Path is the JSON pointer of the value inside the values, e.g. "/global/project".
	Path string
	// Rule is the schema keyword broken: "type", "required", "additionalProperties"...
	Rule string
	// Message is the validator's own words.
	Message string
}

func (e *ValidationError) Error() string {
	parts := make([]string, 0, len(e.Violations))
	for _, v := range e.Violations {
		parts = append(parts, fmt.Sprintf("%s: %s: %s", v.Path, v.Rule, v.Message))
	}
	return fmt.Sprintf("%s: values do not match %s: %s", e.Scope, e.Schema, strings.Join(parts, "; "))
}

// Is makes errors.Is(err, ErrInvalidValues) true.
func (e *ValidationError) Is(target error) bool { return target == ErrInvalidValues }

func violationOf(l validate.Located) Violation {
	v := Violation{Path: l.Pointer, Rule: "schema", Message: l.Err.Error()}
	var ve *oaerrors.Validation
	if !errors.As(l.Err, &ve) {
		return v
	}
	v.Rule = ruleOf(ve.Code())
	if ve.Code() == oaerrors.RequiredFailCode {
		// The pointer is the object; the missing key is the last dotted part
		// of the name, which is all the validator gives for it.
		v.Path = l.Pointer + "/" + escapeToken(ve.Name[strings.LastIndex(ve.Name, ".")+1:])
	}
	return v
}

func escapeToken(t string) string {
	return strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1")
}

// ruleOf names the JSON schema keyword behind a go-openapi error code.
func ruleOf(code int32) string {
	switch code {
	case oaerrors.InvalidTypeCode:
		return "type"
	case oaerrors.RequiredFailCode:
		return "required"
	case oaerrors.TooLongFailCode:
		return "maxLength"
	case oaerrors.TooShortFailCode:
		return "minLength"
	case oaerrors.PatternFailCode:
		return "pattern"
	case oaerrors.EnumFailCode:
		return "enum"
	case oaerrors.MultipleOfFailCode, oaerrors.MultipleOfMustBePositiveCode:
		return "multipleOf"
	case oaerrors.MaxFailCode:
		return "maximum"
	case oaerrors.MinFailCode:
		return "minimum"
	case oaerrors.UniqueFailCode:
		return "uniqueItems"
	case oaerrors.MaxItemsFailCode:
		return "maxItems"
	case oaerrors.MinItemsFailCode:
		return "minItems"
	case oaerrors.NoAdditionalItemsCode:
		return "additionalItems"
	case oaerrors.TooFewPropertiesCode:
		return "minProperties"
	case oaerrors.TooManyPropertiesCode:
		return "maxProperties"
	case oaerrors.UnallowedPropertyCode:
		return "additionalProperties"
	case oaerrors.FailedAllPatternPropsCode:
		return "patternProperties"
	case oaerrors.ReadOnlyFailCode:
		return "readOnly"
	}
	return "schema"
}
