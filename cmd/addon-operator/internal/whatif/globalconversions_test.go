package whatif

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/addon-actors/addon-operator/moduleconfig"
	"github.com/addon-actors/addon-operator/moduleconfig/conversion"
)

// A global ModuleConfig is converted with the global conversions: at
// version 1 it is obsolete, at 2 it is taken; without conversions version
// 2 is unknown and the plan invalid.
func TestPlanGlobalModuleConfigConversions(t *testing.T) {
	w := newWorld(t, []moduleDir{{dir: "010-web", enabled: true}}, nil, 0)
	live := map[string]string{}
	w.converge(t, live)
	v2 := &fstest.MapFile{Data: []byte("version: 2\nconversions:\n  - .replicas = .count | del(.count)\n")}
	chain, err := conversion.Load(fstest.MapFS{"openapi/conversions/v2.yaml": v2}, conversion.Dir)
	if err != nil {
		t.Fatal(err)
	}
	global := func(version int) []moduleconfig.ModuleConfig {
		return []moduleconfig.ModuleConfig{{APIVersion: moduleconfig.APIVersion, Kind: moduleconfig.Kind,
			Metadata: moduleconfig.Metadata{Name: moduleconfig.GlobalName}, Spec: moduleconfig.Spec{Version: version, Settings: map[string]any{"count": 2}}}}
	}
	tests := []struct {
		name    string
		chain   conversion.Chain
		version int
		valid   bool
		want    string // in the warnings, or the error when not valid
	}{
		{name: "v1 converted, obsolete", chain: chain, version: 1, valid: true, want: `ModuleConfig "global": spec.version=1 is obsolete: the latest is 2`},
		{name: "v2 taken", chain: chain, version: 2, valid: true},
		{name: "no conversions: v2 unknown", version: 2, want: "spec.version: unknown settings version: 2; the latest is 1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := w.planner()
			p.opts.GlobalConversions = tc.chain
			plan, err := p.Plan(context.Background(), Request{Data: live, ModuleConfigs: global(tc.version)})
			if err != nil || plan.Valid != tc.valid {
				t.Fatalf("plan %+v, err %v; want valid %v", plan, err, tc.valid)
			}
			text := strings.Join(plan.Warnings, "\n")
			if !tc.valid {
				text = plan.Errors[0].Error
			}
			if !strings.Contains(text, tc.want) {
				t.Fatalf("%q, want %q in it", text, tc.want)
			}
		})
	}
}
