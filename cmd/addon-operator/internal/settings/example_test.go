package settings_test

import (
	"fmt"
	"io"

	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/settings"
)

// Flags win over variables; unset settings take the original's defaults.
func ExampleLoad() {
	lookup := func(name string) (string, bool) {
		v, ok := map[string]string{"ADDON_OPERATOR_NAMESPACE": "addons", "MODULES_DIR": "/modules:/extra"}[name]
		return v, ok
	}
	s, err := settings.Load([]string{"--listen-port", "9650"}, lookup, io.Discard)
	if err != nil {
		panic(err)
	}
	fmt.Println(s.Namespace, s.ModulesDirs, s.ListenPort, s.ConfigMap)
	// Output: addons [/modules /extra] 9650 addon-operator
}
