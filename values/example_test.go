package values_test

import (
	"encoding/json"
	"fmt"

	jsonpatch "github.com/evanphx/json-patch/v5"

	"github.com/addon-actors/addon-operator/values"
)

// A module actor's life with its values: layers from values.yaml files and
// the ConfigMap, a hook's values patch, and the documents a hook and helm get.
func Example() {
	common, _ := values.ParseValuesFile("modules/values.yaml", []byte("global:\n  replicas: 1\nechoEnabled: true\n"))
	own, _ := values.ParseValuesFile("modules/010-echo/values.yaml", []byte("echo:\n  image: echo:1\n"))
	names, _ := values.ParseModuleDir("010-echo")

	global, _ := values.NewGlobalScope(nil, common)
	module, _ := values.NewModuleScope(names, nil, common, own)
	module, _ = module.WithConfig(map[string]any{"image": "echo:2"}) // the ConfigMap's "echo" section

	patch, _ := jsonpatch.DecodePatch([]byte(`[{"op":"add","path":"/echo/internal/port","value":8080}]`))
	module, changed, err := module.WithValuesPatch(patch)
	fmt.Println("changed:", changed, err)

	in := values.ModuleHookInput(global.Snapshot(), module.Snapshot(), []string{names.Name})
	show := func(what string, v any) {
		raw, _ := json.Marshal(v)
		fmt.Printf("%s %s\n", what, raw)
	}
	show("$CONFIG_VALUES_PATH", in.ConfigValues)
	show("$VALUES_PATH", in.Values)
	show("helm", values.HelmValues(global.Snapshot(), module.Snapshot()))
	fmt.Println("enabled:", values.EnabledByLayers(names.ValuesKey, common.Enabled, own.Enabled))
	// Output:
	// changed: true <nil>
	// $CONFIG_VALUES_PATH {"echo":{"image":"echo:2"},"global":{}}
	// $VALUES_PATH {"echo":{"image":"echo:2","internal":{"port":8080}},"global":{"enabledModules":["echo"],"replicas":1}}
	// helm {"echo":{"image":"echo:2","internal":{"port":8080}},"global":{"replicas":1}}
	// enabled: true
}

func ExampleParseModuleDir() {
	for _, dir := range []string{"001-some-module", "cert-manager-v2", "mod-001"} {
		n, err := values.ParseModuleDir(dir)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(n.Order, n.Name, n.ValuesKey, n.EnabledKey)
	}
	// Output:
	// 1 some-module someModule someModuleEnabled
	// 0 cert-manager-v2 certManagerV2 certManagerV2Enabled
	// module dir "mod-001": module name "mod-001": values key "mod001" reads back as module "mod001": invalid module name
}
