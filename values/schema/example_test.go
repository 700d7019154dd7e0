package schema_test

import (
	"fmt"
	"testing/fstest"

	"github.com/addon-actors/addon-operator/values/schema"
)

func ExampleLoad() {
	fsys := fstest.MapFS{
		"modules/010-echo/openapi/config-values.yaml": {Data: []byte("type: object\nproperties:\n  replicas: {type: integer, default: 1}\n")},
		"modules/010-echo/openapi/values.yaml": {Data: []byte(
			"x-extend: {schema: config-values.yaml}\ntype: object\nx-required-for-helm: [internal]\nproperties:\n  internal: {type: object}\n")},
	}
	set, err := schema.Load(fsys, "modules/010-echo/openapi", "echo")
	if err != nil {
		fmt.Println(err)
		return
	}
	section := map[string]any{}
	set.ApplyDefaults(section)
	fmt.Println(section)
	fmt.Println(set.ValidateConfig(`module "echo"`, map[string]any{"replicas": "two"}))
	fmt.Println(set.ValidateHelm(`module "echo"`, section))
	// Output:
	// map[replicas:1]
	// module "echo": values do not match modules/010-echo/openapi/config-values.yaml: /echo/replicas: type: echo.replicas in body must be of type integer: "string"
	// module "echo": values do not match modules/010-echo/openapi/values.yaml (for helm): /echo/internal: required: echo.internal in body is required
}
