package conversion_test

import (
	"fmt"
	"testing/fstest"

	"github.com/addon-actors/addon-operator/moduleconfig/conversion"
)

// Settings written at version 1 are converted through v2 and v3 (files
// named by the version inside them, not by their names).
func Example() {
	module := fstest.MapFS{
		"openapi/conversions/v2.yaml": {Data: []byte("version: 2\nconversions:\n  - .replicas = .count | del(.count)\n")},
		"openapi/conversions/v3.yaml": {Data: []byte("version: 3\nconversions:\n  - .resources.replicas = .replicas\n  - del(.replicas)\n")},
	}
	chain, err := conversion.Load(module, conversion.Dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	settings, err := chain.Convert(1, map[string]any{"count": 3})
	fmt.Println(chain.Latest(), settings, err)
	// Output:
	// 3 map[resources:map[replicas:3]] <nil>
}
