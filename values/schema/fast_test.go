package schema

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"testing"

	"github.com/go-openapi/spec"
	"github.com/go-openapi/strfmt"
	"github.com/go-openapi/validate"
)

// TestQuickNeverAcceptsWhatGoOpenAPIRefuses checks the quick check against
// go-openapi on random schemas and values: a quick yes must be go-openapi's
// yes. It also checks that the quick check does say yes often enough to be
// worth having.
func TestQuickNeverAcceptsWhatGoOpenAPIRefuses(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	quickYes, total := 0, 0
	for i := 0; i < 400; i++ {
		doc := randomSchema(rng, 0)
		raw, _ := json.Marshal(doc)
		s := new(spec.Schema)
		if err := json.Unmarshal(raw, s); err != nil {
			t.Fatal(err)
		}
		q := compileQuick(s)
		if q == nil {
			continue
		}
		v := validate.NewSchemaValidator(s, nil, "", strfmt.Default, validate.WithSkipSchemataResult(true))
		for j := 0; j < 30; j++ {
			data := randomValue(rng, doc, 0)
			total++
			if !q.valid(data) {
				continue
			}
			quickYes++
			if res := v.Validate(data); !res.IsValid() {
				d, _ := json.Marshal(data)
				t.Fatalf("quick accepts what go-openapi refuses:\nschema %s\nvalue  %s\nerrors %v", raw, d, res.Errors)
			}
		}
	}
	if quickYes < total/10 {
		t.Errorf("quick said yes %d times in %d: too seldom to help", quickYes, total)
	}
}

func pick[T any](rng *rand.Rand, options ...T) T { return options[rng.Intn(len(options))] }

func randomSchema(rng *rand.Rand, depth int) map[string]any {
	s := map[string]any{}
	kind := pick(rng, "string", "integer", "number", "boolean", "object", "array", "")
	if depth >= 2 && (kind == "object" || kind == "array") {
		kind = "string"
	}
	if kind != "" {
		s["type"] = kind
		if rng.Intn(8) == 0 {
			s["type"] = []any{kind, "null"}
		}
	}
	if rng.Intn(10) == 0 {
		s["nullable"] = true
	}
	switch kind {
	case "string":
		addSome(rng, s, map[string]any{"minLength": 1, "maxLength": 3, "pattern": "^[a-c]+$", "enum": []any{"a", "bb", "x"}})
	case "integer", "number":
		addSome(rng, s, map[string]any{"minimum": 0, "maximum": 10, "exclusiveMinimum": true, "exclusiveMaximum": true, "enum": []any{1, 2.5, 10}})
	case "object":
		props := map[string]any{}
		for i := rng.Intn(4); i > 0; i-- {
			props[pick(rng, "a", "b", "c", "d")] = randomSchema(rng, depth+1)
		}
		s["properties"] = props
		addSome(rng, s, map[string]any{"required": []any{"a", "b"}, "minProperties": 1, "maxProperties": 2,
			"additionalProperties": pick[any](rng, false, true, map[string]any{"type": "integer"}),
			"patternProperties":    map[string]any{"^[cx]": map[string]any{"type": "string"}}})
	case "array":
		s["items"] = randomSchema(rng, depth+1)
		addSome(rng, s, map[string]any{"minItems": 1, "maxItems": 2})
	}
	if rng.Intn(30) == 0 {
		k := pick(rng, "format", "uniqueItems", "multipleOf")
		s[k] = map[string]any{"format": "date", "uniqueItems": true, "multipleOf": 2}[k]
	}
	return s
}

func addSome(rng *rand.Rand, s map[string]any, keywords map[string]any) {
	for k, v := range keywords {
		if rng.Intn(3) == 0 {
			s[k] = v
		}
	}
}

func randomValue(rng *rand.Rand, schema map[string]any, depth int) any {
	if rng.Intn(12) == 0 || depth > 3 {
		return pick[any](rng, nil, "a", 1.0, 2.5, true, map[string]any{}, []any{}, 1e17, -3.0)
	}
	kind, _ := schema["type"].(string)
	if list, ok := schema["type"].([]any); ok {
		kind = list[0].(string)
	}
	switch kind {
	case "string":
		return pick(rng, "a", "bb", "abc", "x", "", "abcd", "é")
	case "integer":
		return pick(rng, 0.0, 1.0, 5.0, 10.0, 11.0, -1.0)
	case "number":
		return pick(rng, 0.0, 2.5, 10.0, 10.5, -0.5)
	case "boolean":
		return rng.Intn(2) == 0
	case "object":
		obj := map[string]any{}
		props, _ := schema["properties"].(map[string]any)
		for _, k := range []string{"a", "b", "c", "d", "x", "$schema"} {
			if rng.Intn(2) == 0 {
				sub, _ := props[k].(map[string]any)
				obj[k] = randomValue(rng, sub, depth+1)
			}
		}
		return obj
	case "array":
		items, _ := schema["items"].(map[string]any)
		list := []any{}
		for i := rng.Intn(4); i > 0; i-- {
			list = append(list, randomValue(rng, items, depth+1))
		}
		return list
	}
	return pick[any](rng, "s", 3.0, nil, map[string]any{"a": 1.0}, []any{1.0}, false, fmt.Sprint(depth))
}
