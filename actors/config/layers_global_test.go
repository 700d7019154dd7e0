package config

import (
	"strings"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/moduleconfig"
	"github.com/addon-actors/addon-operator/moduleconfig/conversion"
	"github.com/addon-actors/addon-operator/values"
)

// The global values' conversions work as a module's: the ConfigMap's
// global section is taken as version 1 and converted, a global object at
// version 1 is converted and obsolete, one written at the latest is not,
// and a section that does not convert names the key.
func TestLayersGlobalConversions(t *testing.T) {
	step, err := conversion.ParseFile("openapi/conversions/v2.yaml", []byte("version: 2\nconversions:\n  - .replicas = (.count + 0) | del(.count)\n"))
	if err != nil {
		t.Fatal(err)
	}
	chain, err := conversion.NewChain([]conversion.Step{step})
	if err != nil {
		t.Fatal(err)
	}
	targets := map[string]moduleconfig.Target{moduleconfig.GlobalName: moduleconfig.GlobalTarget(nil, values.Sections{}, chain)}
	global := func(version int, settings map[string]any) []moduleconfig.ModuleConfig {
		return []moduleconfig.ModuleConfig{{APIVersion: moduleconfig.APIVersion, Kind: moduleconfig.Kind,
			Metadata: moduleconfig.Metadata{Name: moduleconfig.GlobalName, Generation: 1},
			Spec:     moduleconfig.Spec{Version: version, Settings: settings}}}
	}
	tests := []struct {
		name     string
		data     map[string]string
		objects  []moduleconfig.ModuleConfig
		global   string // the global key's data after layering
		obsolete []obsolete
		err      string
	}{
		{name: "ConfigMap section at version 1 converted", data: map[string]string{"global": "count: 5\n"}, global: "replicas: 5\n"},
		{name: "v1 object converted and obsolete", data: map[string]string{"global": "count: 5\n"}, objects: global(1, map[string]any{"count": 3}),
			global: "replicas: 3\n", obsolete: []obsolete{{Module: "global", Version: 1, Latest: 2}}},
		{name: "v2 object as it is", objects: global(2, map[string]any{"replicas": 4}), global: "replicas: 4\n"},
		{name: "a section that does not convert", data: map[string]string{"global": "count: x\n"},
			err: `ConfigMap key "global" (version 1, converted to 2)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var l layers
			res, err := l.Lay(tc.data, tc.objects, targets, nil, time.Time{})
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || res.Data["global"] != tc.global || len(res.Obsolete) != len(tc.obsolete) {
				t.Fatalf("data %v, obsolete %v, err %v; want global %q, obsolete %v", res.Data, res.Obsolete, err, tc.global, tc.obsolete)
			}
			for i, o := range tc.obsolete {
				if res.Obsolete[i] != o {
					t.Errorf("obsolete %v, want %v", res.Obsolete[i], o)
				}
			}
		})
	}
}
