package configmap_test

import (
	"fmt"

	jsonpatch "github.com/evanphx/json-patch/v5"

	"github.com/addon-actors/addon-operator/values"
	"github.com/addon-actors/addon-operator/values/configmap"
)

// The config actor's two jobs: tell what an edit changed, and write a
// hook's config patch back.
func Example() {
	var cache configmap.Cache
	before, _ := cache.Parse(map[string]string{"global": "a: 1\n", "echo": "image: echo:1\n", "note": "kept as is"})
	after, _ := cache.Parse(map[string]string{"global": "a: 1.0 # same\n", "echo": "image: echo:2\n", "note": "kept as is"})
	fmt.Printf("%+v\n", values.Diff(before, after))

	patch, _ := jsonpatch.DecodePatch([]byte(`[{"op":"add","path":"/echo/password","value":"s3cr3t"},
		{"op":"add","path":"/echoEnabled","value":true}]`))
	data, changed, err := configmap.ApplyPatch(map[string]string{"echo": "image: echo:2\n", "note": "kept as is"}, patch)
	fmt.Println(changed, err)
	fmt.Printf("%q\n", data)
	// Output:
	// {Global:false Enabled:[] Modules:[echo] Maintenance:[]}
	// true <nil>
	// map["echo":"image: echo:2\npassword: s3cr3t\n" "echoEnabled":"true" "note":"kept as is"]
}
