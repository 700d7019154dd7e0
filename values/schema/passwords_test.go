package schema_test

import (
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/values/schema"
)

func TestPasswords(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"none", map[string]string{"config-values.yaml": "type: object\nproperties:\n  a: {type: string}\n"}, nil},
		{"property", map[string]string{"config-values.yaml": `
type: object
properties:
  password: {type: string, format: password}
  user: {type: string}
`}, []string{"password"}},
		{"nested, items, additionalProperties, patternProperties", map[string]string{"config-values.yaml": `
type: object
properties:
  db:
    type: object
    properties:
      auth:
        type: object
        properties:
          secret: {type: string, format: password}
  users:
    type: array
    items:
      type: object
      properties:
        token: {type: string, format: password}
  keys:
    type: object
    additionalProperties: {type: string, format: password}
  byPattern:
    type: object
    patternProperties:
      "^k":
        type: string
        format: password
`}, []string{"byPattern.*", "db.auth.secret", "keys.*", "users.*.token"}},
		{"values.yaml, x-extend and $ref", map[string]string{
			"config-values.yaml": "type: object\nproperties:\n  a: {type: string, format: password}\n",
			"values.yaml": `
x-extend: {schema: config-values.yaml}
type: object
definitions:
  cred:
    type: object
    properties:
      key: {type: string, format: password}
properties:
  internal:
    $ref: "#/definitions/cred"
  alt:
    allOf:
    - type: object
      properties:
        pin: {type: string, format: password}
`}, []string{"a", "alt.pin", "internal.key"}},
		{"no schema", map[string]string{}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, p := range mustLoad(t, c.files).Passwords() {
				got = append(got, p.String())
			}
			if strings.Join(got, " ") != strings.Join(c.want, " ") {
				t.Fatalf("Passwords() = %q, want %q", got, c.want)
			}
		})
	}
	if (*schema.Set)(nil).Passwords() != nil {
		t.Fatal("a nil Set has passwords")
	}
}
