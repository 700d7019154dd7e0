package schema_test

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"sigs.k8s.io/yaml"

	"github.com/addon-actors/addon-operator/values"
	"github.com/addon-actors/addon-operator/values/schema"
)

func load(t *testing.T, files map[string]string) (*schema.Set, error) {
	t.Helper()
	fsys := fstest.MapFS{}
	for name, content := range files {
		fsys["global/openapi/"+name] = &fstest.MapFile{Data: []byte(content)}
	}
	return schema.Load(fsys, "global/openapi", "global")
}

func mustLoad(t *testing.T, files map[string]string) *schema.Set {
	t.Helper()
	set, err := load(t, files)
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// specFiles reads the schemas of a spec/VALUES.md example from
// ../testdata/spec (package values' tests read them too).
func specFiles(t *testing.T, example string) map[string]string {
	t.Helper()
	dir := filepath.Join("..", "testdata", "spec", example)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = string(data)
	}
	return files
}

// assertSchema compares an effective schema with the YAML the spec shows.
func assertSchema(t *testing.T, what string, s *schema.Schema, want string) {
	t.Helper()
	spec, err := s.Spec()
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(spec)
	var got, wantDoc any
	_ = json.Unmarshal(raw, &got)
	if err := yaml.Unmarshal([]byte(want), &wantDoc); err != nil {
		t.Fatal(err)
	}
	if !values.Equal(got, wantDoc) {
		wantRaw, _ := json.Marshal(wantDoc)
		t.Errorf("%s:\n got  %s\n want %s", what, raw, wantRaw)
	}
}

const extendConfigValues = `
type: object
additionalProperties: false
required:
  - project
  - clusterName
properties:
  project:
    type: string
  clusterName:
    type: string
  clusterHostname:
    type: string
`

// TestSpecXExtend is the x-extend example of spec/VALUES.md.
func TestSpecXExtend(t *testing.T) {
	set := mustLoad(t, map[string]string{
		"config-values.yaml": extendConfigValues,
		"values.yaml": `
x-extend:
  schema: config-values.yaml
type: object
additionalProperties: false
required:
  - discovery
  - param1
properties:
  discovery:
    type: object
  param1:
    type: string
`})
	effective := `
type: object
additionalProperties: false
required:
  - project
  - clusterName
  - discovery
  - param1
properties:
  project:
    type: string
  clusterName:
    type: string
  clusterHostname:
    type: string
  discovery:
    type: object
  param1:
    type: string
`
	assertSchema(t, "values", set.Values, effective)
	assertSchema(t, "config-values", set.Config, extendConfigValues)
	if !strings.HasSuffix(set.Values.File(), "global/openapi/values.yaml") {
		t.Errorf("File() = %q", set.Values.File())
	}
}

func TestXExtendCopiesTitleDescriptionAndExtensions(t *testing.T) {
	set := mustLoad(t, map[string]string{
		"config-values.yaml": "type: object\ntitle: T\ndescription: D\nx-doc: a\nx-own: parent\ndefinitions:\n  d: {type: string}\npatternProperties:\n  '^p': {type: string}\n",
		"values.yaml":        "x-extend: {schema: config-values.yaml}\ntype: object\nx-own: child\n",
	})
	assertSchema(t, "values", set.Values, `
type: object
additionalProperties: false
title: T
description: D
x-doc: a
x-own: child
definitions:
  d: {type: string}
patternProperties:
  '^p': {type: string}
`)
}

// TestSpecRequiredForHelm is the x-required-for-helm example of
// spec/VALUES.md: required after hooks, and before helm.
func TestSpecRequiredForHelm(t *testing.T) {
	set := mustLoad(t, specFiles(t, "required-for-helm"))
	assertSchema(t, "after each hook", set.Values, `
type: object
additionalProperties: false
properties:
  param1:
    type: string
  param2:
    type: string
`)
	assertSchema(t, "before helm", set.Helm, `
type: object
additionalProperties: false
required:
  - param1
  - param2
properties:
  param1:
    type: string
  param2:
    type: string
`)
	half := map[string]any{"param1": "a"}
	if err := set.ValidateValues("global", half); err != nil {
		t.Errorf("after a hook that set param1 only: %v", err)
	}
	err := set.ValidateHelm("global", half)
	var verr *schema.ValidationError
	if !errors.As(err, &verr) || len(verr.Violations) != 1 {
		t.Fatalf("before helm: err = %v, want one violation", err)
	}
	want := schema.Violation{Path: "/global/param2", Rule: "required", Message: "global.param2 in body is required"}
	if verr.Violations[0] != want || verr.Scope != "global" || !strings.Contains(verr.Schema, "(for helm)") {
		t.Errorf("got %+v, want %+v", verr, want)
	}
}

func TestNestedRequiredForHelm(t *testing.T) {
	set := mustLoad(t, map[string]string{"values.yaml": `
type: object
properties:
  internal:
    type: object
    x-required-for-helm: [cert]
    properties:
      cert: {type: string}
`})
	in := map[string]any{"internal": map[string]any{}}
	if err := set.ValidateValues("global", in); err != nil {
		t.Fatal(err)
	}
	if err := set.ValidateHelm("global", in); err == nil || !strings.Contains(err.Error(), "/global/internal/cert: required") {
		t.Errorf("ValidateHelm = %v", err)
	}
}

// TestSpecDefaults is the defaults example of spec/VALUES.md.
func TestSpecDefaults(t *testing.T) {
	set := mustLoad(t, specFiles(t, "defaults"))
	section := map[string]any{"project": "p", "clusterName": "c", "param1": "x"}
	set.ApplyDefaults(section)
	if d, ok := section["discovery"].(map[string]any); !ok || len(d) != 0 {
		t.Errorf("discovery = %#v, want {}", section["discovery"])
	}
	section = map[string]any{"discovery": map[string]any{"a": 1.0}}
	set.ApplyDefaults(section)
	if len(section["discovery"].(map[string]any)) != 1 {
		t.Errorf("a present value was replaced: %v", section)
	}
}

func TestDefaultsNested(t *testing.T) {
	set := mustLoad(t, map[string]string{"values.yaml": `
type: object
properties:
  obj:
    type: object
    default: {}
    properties:
      count: {type: integer, default: 3}
      keep: {type: string, default: d}
  list:
    type: array
    items:
      type: object
      properties:
        port: {type: integer, default: 80}
  byName:
    type: object
    additionalProperties:
      type: object
      properties:
        enabled: {type: boolean, default: true}
`})
	section := map[string]any{
		"obj":    nil, // present: kept as null
		"list":   []any{map[string]any{}, map[string]any{"port": 1.0}},
		"byName": map[string]any{"x": map[string]any{}},
	}
	set.ApplyDefaults(section)
	raw, _ := json.Marshal(section)
	if string(raw) != `{"byName":{"x":{"enabled":true}},"list":[{"port":80},{"port":1}],"obj":null}` {
		t.Errorf("got %s", raw)
	}
	section = map[string]any{}
	set.ApplyDefaults(section)
	raw, _ = json.Marshal(section)
	if string(raw) != `{"obj":{"count":3,"keep":"d"}}` {
		t.Errorf("defaults inside a defaulted object: got %s", raw)
	}
}

func TestAdditionalPropertiesOnlyAtRoot(t *testing.T) {
	set := mustLoad(t, map[string]string{"config-values.yaml": `
type: object
properties:
  discovery: {type: object}
  settings:
    type: object
    properties:
      a: {type: string}
`})
	ok := map[string]any{"discovery": map[string]any{"any": 1.0}, "settings": map[string]any{"a": "x", "b": 2.0}}
	if err := set.ValidateConfig("global", ok); err != nil {
		t.Errorf("nested objects must keep accepting unknown keys: %v", err)
	}
	err := set.ValidateConfig(`module "x"`, map[string]any{"typo": 1.0})
	if err == nil || !strings.Contains(err.Error(), "/global/typo: additionalProperties") {
		t.Errorf("root: err = %v", err)
	}
	explicit := mustLoad(t, map[string]string{"config-values.yaml": "type: object\nadditionalProperties: true\n"})
	if err := explicit.ValidateConfig("global", map[string]any{"any": 1.0}); err != nil {
		t.Errorf("an explicit additionalProperties: true must stay: %v", err)
	}
}

func TestBadSchemas(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		want  error
		msg   string
	}{
		{"not YAML", map[string]string{"values.yaml": "type: [object\n"}, schema.ErrInvalidSchema, "global/openapi/values.yaml"},
		{"not a map", map[string]string{"config-values.yaml": "- a\n"}, schema.ErrInvalidSchema, "not a map"},
		{"unknown type", map[string]string{"values.yaml": "type: object\nproperties:\n  a: {type: strin}\n"},
			schema.ErrInvalidSchema, "/properties/a/type: strin"},
		{"properties as a list", map[string]string{"values.yaml": "type: object\nproperties: [a, b]\n"}, schema.ErrInvalidSchema, "values.yaml"},
		{"external $ref", map[string]string{"values.yaml": "type: object\nproperties:\n  a: {$ref: 'other.yaml#/x'}\n"},
			schema.ErrInvalidSchema, "only references inside the file"},
		{"missing local $ref", map[string]string{"values.yaml": "type: object\nproperties:\n  a: {$ref: '#/definitions/none'}\n"},
			schema.ErrInvalidSchema, "expand $ref"},
		{"x-extend to a missing file", map[string]string{"values.yaml": "x-extend: {schema: config-values.yaml}\ntype: object\n"},
			schema.ErrExtend, "global/openapi/config-values.yaml does not exist"},
		{"x-extend without schema", map[string]string{"values.yaml": "x-extend: {}\ntype: object\n"}, schema.ErrExtend, "must name a file"},
		{"x-extend not a map", map[string]string{"values.yaml": "x-extend: config-values.yaml\ntype: object\n"}, schema.ErrExtend, "want a map"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := load(t, c.files)
			if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("err = %v, want %v containing %q", err, c.want, c.msg)
			}
		})
	}
}

func TestPropertyNamedTypeIsNotAKeyword(t *testing.T) {
	set := mustLoad(t, map[string]string{"values.yaml": "type: object\nproperties:\n  type: {type: string, enum: [LoadBalancer]}\n"})
	if err := set.ValidateValues("global", map[string]any{"type": "NodePort"}); err == nil ||
		!strings.Contains(err.Error(), "/global/type: enum") {
		t.Errorf("err = %v", err)
	}
}

func TestLocalRefsExpanded(t *testing.T) {
	set := mustLoad(t, map[string]string{"values.yaml": `
type: object
definitions:
  port: {type: integer, minimum: 1}
properties:
  http: {$ref: '#/definitions/port'}
`})
	err := set.ValidateValues("global", map[string]any{"http": 0.0})
	if err == nil || !strings.Contains(err.Error(), "/global/http: minimum") {
		t.Errorf("err = %v", err)
	}
}

func TestNoSchemas(t *testing.T) {
	set, err := schema.Load(fstest.MapFS{}, "modules/001-a/openapi", "a")
	if err != nil || set.Config != nil || set.Values != nil {
		t.Fatalf("got %+v, %v", set, err)
	}
	var none *schema.Set
	none.ApplyDefaults(map[string]any{})
	if err := none.ValidateHelm("x", map[string]any{"a": 1.0}); err != nil {
		t.Error(err)
	}
}

func TestReadErrorIsReported(t *testing.T) {
	_, err := schema.Compile("global", schema.Files{Dir: "d", ReadFile: func(string) ([]byte, error) {
		return nil, fs.ErrPermission
	}})
	if !errors.Is(err, fs.ErrPermission) || !strings.Contains(err.Error(), "d/config-values.yaml") {
		t.Errorf("err = %v", err)
	}
}

// TestValidateConcurrently: a Set is shared by the goroutines that read an
// actor's published snapshot; validation must not race.
func TestValidateConcurrently(t *testing.T) {
	set := mustLoad(t, map[string]string{"values.yaml": `
type: object
definitions:
  s: {type: string}
properties:
  a: {$ref: '#/definitions/s'}
  l: {type: array, items: {type: object, properties: {x: {type: integer}}}}
`})
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 50; j++ {
				_ = set.ValidateValues("global", map[string]any{"a": 1.0, "l": []any{map[string]any{"x": "s"}}})
				_ = set.ValidateHelm("global", map[string]any{"a": "ok"})
			}
		}()
	}
	wg.Wait()
}
