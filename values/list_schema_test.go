package values_test

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/addon-actors/addon-operator/values"
	"github.com/addon-actors/addon-operator/values/schema"
	"github.com/addon-actors/addon-operator/values/valuestest"
)

// listSchemaScope is module "my-module" with its own values.yaml and the
// given openapi files.
func listSchemaScope(t *testing.T, own string, files map[string]string) values.Scope {
	t.Helper()
	fsys := fstest.MapFS{}
	for name, content := range files {
		fsys["modules/001-my-module/openapi/"+name] = &fstest.MapFile{Data: []byte(content)}
	}
	names := moduleNames(t, "001-my-module")
	set, err := schema.Load(fsys, "modules/001-my-module/openapi", names.ValuesKey)
	if err != nil {
		t.Fatal(err)
	}
	s, err := values.NewModuleScope(names, set, valuesFile(t, "modules/001-my-module/values.yaml", own))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

const listConfigSchema = `
type: array
maxItems: 3
items:
  type: object
  required: [name]
  properties:
    name: {type: string}
    port: {type: integer, default: 80}
`

// TestListSectionSchema: a list section validates against `type: array`
// schemas, with item defaults applied, and errors name the item.
func TestListSectionSchema(t *testing.T) {
	s := listSchemaScope(t, "myModule: [{name: a}, {name: b, port: 8080}]",
		map[string]string{"config-values.yaml": listConfigSchema})
	assertJSON(t, "values with item defaults", s.Values(), `[{"name":"a","port":80},{"name":"b","port":8080}]`)

	cases := []struct {
		name    string
		section any
		want    string
	}{
		{"bad item", []any{map[string]any{"name": 1.0}},
			"/myModule/0/name: type: myModule.0.name in body must be of type string"},
		{"missing required", []any{map[string]any{"port": 1.0}}, "/myModule/0/name: required"},
		{"too many", []any{map[string]any{"name": "a"}, map[string]any{"name": "b"}, map[string]any{"name": "c"},
			map[string]any{"name": "d"}}, "/myModule: maxItems"},
		{"a map", map[string]any{"name": "a"}, "/myModule: type: myModule in body must be of type array"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			next, err := s.WithConfig(c.section)
			if !errors.Is(err, schema.ErrInvalidValues) || !strings.Contains(err.Error(), c.want) ||
				!strings.Contains(err.Error(), "modules/001-my-module/openapi/config-values.yaml") {
				t.Errorf("err = %v, want one containing %q", err, c.want)
			}
			assertJSON(t, "values kept", next.Values(), `[{"name":"a","port":80},{"name":"b","port":8080}]`)
		})
	}
	next, err := s.WithConfig([]any{map[string]any{"name": "c"}})
	if err != nil {
		t.Fatal(err)
	}
	assertJSON(t, "ConfigMap list with defaults", next.Values(), `[{"name":"c","port":80}]`)
}

// TestListSectionValuesSchema: values patches on a list are checked against
// values.yaml; x-required-for-helm does not apply to a list.
func TestListSectionValuesSchema(t *testing.T) {
	s := listSchemaScope(t, "myModule: [1, 2]", map[string]string{
		"values.yaml": "type: array\nitems: {type: integer}\n"})
	next, _, err := s.WithValuesPatch(valuestest.Patch(t, `[{"op":"add","path":"/myModule/-","value":3}]`))
	if err != nil {
		t.Fatal(err)
	}
	assertJSON(t, "values", next.Values(), `[1, 2, 3]`)
	if err := next.ValidateForHelm(); err != nil {
		t.Errorf("helm validation: %v", err)
	}
	same, _, err := next.WithValuesPatch(valuestest.Patch(t, `[{"op":"add","path":"/myModule/-","value":"x"}]`))
	want := `module "my-module": values do not match modules/001-my-module/openapi/values.yaml: ` +
		`/myModule/3: type: myModule.3 in body must be of type integer: "string"`
	if err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
	assertJSON(t, "values after a refused patch", same.Values(), `[1, 2, 3]`)
}
