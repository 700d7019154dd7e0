package moduleconfig_test

import (
	"fmt"

	"github.com/addon-actors/addon-operator/moduleconfig"
)

// A ModuleConfig parsed from a manifest, checked for a module the modules
// dirs do not hold (its settings cannot be checked then, which is a
// warning), and laid over the ConfigMap's data: it wins over the module's
// section and enabled key.
func Example() {
	manifest := `apiVersion: addon-operator.io/v1alpha1
kind: ModuleConfig
metadata:
  name: web
spec:
  enabled: true
  version: 1
  settings:
    replicas: 3
`
	m, err := moduleconfig.Parse("web.yaml", []byte(manifest))
	if err != nil {
		fmt.Println(err)
		return
	}
	r := moduleconfig.Validate(m.ModuleConfigs[0], nil)
	fmt.Println(r.Err, r.Warnings)
	data, ignored, _ := moduleconfig.Overlay(map[string]string{"web": "replicas: 1", "webEnabled": "false"}, m.ModuleConfigs)
	fmt.Printf("%q\n%q\n", data, ignored)
	// Output:
	// <nil> [ModuleConfig "web": unknown module: no modules dir holds it; its settings are not checked]
	// map["web":"replicas: 3\n" "webEnabled":"true"]
	// ["ConfigMap key \"web\" is ignored: ModuleConfig \"web\" configures web" "ConfigMap key \"webEnabled\" is ignored: ModuleConfig \"web\" configures web"]
}
