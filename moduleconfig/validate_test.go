package moduleconfig_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/moduleconfig"
	"github.com/addon-actors/addon-operator/test/scenario"
	"github.com/addon-actors/addon-operator/values"
)

// webTarget is a module "web" whose settings are at version 3 (v2 renames
// count to replicas, v3 moves it under resources), with a config schema
// that requires resources.replicas >= 1 and a values.yaml default.
func webTarget(t *testing.T) *moduleconfig.Target {
	t.Helper()
	root := scenario.TempTree(t, map[string]string{
		"010-web/values.yaml":                 "web:\n  image: nginx\n",
		"010-web/openapi/conversions/v2.yaml": "version: 2\nconversions:\n  - .replicas = .count | del(.count)\n",
		"010-web/openapi/conversions/v3.yaml": "version: 3\nconversions:\n  - .resources.replicas = .replicas\n  - del(.replicas)\n",
		"010-web/openapi/config-values.yaml": "type: object\nadditionalProperties: false\nproperties:\n  image: {type: string}\n" +
			"  resources:\n    type: object\n    properties:\n      replicas: {type: integer, minimum: 1}\n",
	}, 0o644)
	defs, errs := layout.Scan([]string{root}, values.Sections{})
	if len(errs) > 0 || len(defs) != 1 {
		t.Fatalf("scan: %v", errs)
	}
	target := moduleconfig.ModuleTarget(defs[0])
	return &target
}

func object(name string, version int, enabled *bool, settings map[string]any) moduleconfig.ModuleConfig {
	return moduleconfig.ModuleConfig{APIVersion: moduleconfig.APIVersion, Kind: moduleconfig.Kind,
		Metadata: moduleconfig.Metadata{Name: name}, Spec: moduleconfig.Spec{Version: version, Enabled: enabled, Settings: settings}}
}

func TestValidate(t *testing.T) {
	web := webTarget(t)
	off := false
	tests := []struct {
		name     string
		mc       moduleconfig.ModuleConfig
		target   *moduleconfig.Target
		settings map[string]any
		err      string
		is       error
		warnings []string
	}{
		{name: "latest", mc: object("web", 3, nil, map[string]any{"resources": map[string]any{"replicas": 2}}), target: web,
			settings: map[string]any{"resources": map[string]any{"replicas": 2}}},
		{name: "v1 converted through v2 and v3", mc: object("web", 1, nil, map[string]any{"count": 3}), target: web,
			settings: map[string]any{"resources": map[string]any{"replicas": float64(3)}},
			warnings: []string{`ModuleConfig "web": spec.version=1 is obsolete: the latest is 3`}},
		{name: "no version is v1", mc: object("web", 0, nil, map[string]any{"count": 1}), target: web,
			settings: map[string]any{"resources": map[string]any{"replicas": float64(1)}}, warnings: []string{"spec.version=1 is obsolete"}},
		{name: "schema error names the field", mc: object("web", 3, nil, map[string]any{"resources": map[string]any{"replicas": 0}}), target: web,
			err: `ModuleConfig "web": spec.settings (version 3 converted to 3): settings are not valid: `, is: moduleconfig.ErrNotValid},
		{name: "unknown field after conversion", mc: object("web", 2, nil, map[string]any{"replicas": 2, "colour": "red"}), target: web,
			err: "colour", is: moduleconfig.ErrNotValid},
		{name: "unknown version", mc: object("web", 4, nil, map[string]any{"a": 1}), target: web,
			err: `ModuleConfig "web": spec.version: unknown settings version: 4; the latest is 3 (accepted: 1 to 3)`, is: moduleconfig.ErrUnknownVersion},
		{name: "unknown version without settings", mc: object("web", 4, nil, nil), target: web,
			warnings: []string{"spec.version: unknown settings version: 4"}},
		{name: "conversion fails", mc: object("web", 2, nil, map[string]any{"replicas": "x", "resources": "flat"}), target: web,
			err: `ModuleConfig "web": spec.settings: settings conversion from version 2 to 3`},
		{name: "disabled: settings not checked", mc: object("web", 3, &off, map[string]any{"colour": "red"}), target: web,
			settings: map[string]any{"colour": "red"}},
		{name: "unknown module", mc: object("ghost", 1, nil, map[string]any{"a": 1}),
			settings: map[string]any{"a": 1}, warnings: []string{`ModuleConfig "ghost": unknown module`}},
		{name: "bad object", mc: object("Ghost", 1, nil, nil), target: web, err: "metadata.name", is: moduleconfig.ErrInvalid},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := moduleconfig.Validate(tc.mc, tc.target)
			if tc.err != "" {
				if r.Err == nil || !strings.Contains(r.Err.Error(), tc.err) || (tc.is != nil && !errors.Is(r.Err, tc.is)) || r.Settings != nil {
					t.Fatalf("err %v (settings %v), want %q", r.Err, r.Settings, tc.err)
				}
				return
			}
			if r.Err != nil {
				t.Fatal(r.Err)
			}
			if !reflect.DeepEqual(r.Settings, tc.settings) {
				t.Fatalf("settings %#v, want %#v", r.Settings, tc.settings)
			}
			if len(r.Warnings) != len(tc.warnings) {
				t.Fatalf("warnings %q, want %q", r.Warnings, tc.warnings)
			}
			for i, w := range tc.warnings {
				if !strings.Contains(r.Warnings[i], w) {
					t.Errorf("warning %q, want %q", r.Warnings[i], w)
				}
			}
		})
	}
}

// The read side's check is the ConfigMap's: a section the operator refuses
// from the ConfigMap is refused from a ModuleConfig with the same words.
func TestValidateSaysWhatTheConfigMapSays(t *testing.T) {
	web := webTarget(t)
	section := map[string]any{"resources": map[string]any{"replicas": -1}}
	_, fromConfigMap := web.Scope.WithConfig(section)
	r := moduleconfig.Validate(object("web", 3, nil, section), web)
	if fromConfigMap == nil || r.Err == nil || !strings.HasSuffix(r.Err.Error(), fromConfigMap.Error()) {
		t.Fatalf("ModuleConfig: %v\nConfigMap: %v\nwant the ConfigMap's words at the end", r.Err, fromConfigMap)
	}
	if !strings.Contains(fromConfigMap.Error(), "replicas") {
		t.Fatalf("the schema error %q does not name the field", fromConfigMap)
	}
}

func TestValidateGlobal(t *testing.T) {
	target := moduleconfig.GlobalTarget(nil, values.Sections{}, webTarget(t).Conversions)
	on := true
	mc := object("global", 2, &on, map[string]any{"replicas": 1})
	mc.Spec.Maintenance = "NoResourceReconciliation"
	r := moduleconfig.Validate(mc, &target)
	if r.Err != nil || !reflect.DeepEqual(r.Settings, map[string]any{"resources": map[string]any{"replicas": float64(1)}}) {
		t.Fatalf("%v %v", r.Err, r.Settings)
	}
	want := []string{"spec.enabled is ignored", "spec.maintenance is ignored", "spec.version=2 is obsolete"}
	if len(r.Warnings) != len(want) {
		t.Fatalf("warnings %q, want %q", r.Warnings, want)
	}
	for i, w := range want {
		if !strings.Contains(r.Warnings[i], w) {
			t.Errorf("warning %q, want %q", r.Warnings[i], w)
		}
	}
}
