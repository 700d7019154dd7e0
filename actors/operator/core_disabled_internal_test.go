package operator

import (
	"testing"

	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/values"
)

// The reason of an uninstall names the highest layer with a say, which is
// what disabled the module, down to the key.
func TestDisabledBy(t *testing.T) {
	off := map[string]bool{"fooBar": false}
	on := map[string]bool{"fooBar": true}
	falseSection := configMapSections(t, map[string]any{"fooBar": "false", "fooBarEnabled": true})
	cases := []struct {
		name           string
		common, own    map[string]bool
		config         values.Sections
		dynamic        map[string]bool
		byScript       bool
		cause, wantTxt string
	}{
		{"modules values.yaml", off, nil, values.Sections{}, nil, false, CauseModulesValues,
			"disabled in the modules dir's values.yaml key fooBarEnabled"},
		{"module values.yaml over modules values.yaml", on, off, values.Sections{}, nil, false, CauseModuleValues,
			"disabled in the module's values.yaml key fooBarEnabled"},
		{"ConfigMap key", on, nil, values.Sections{Enabled: off}, nil, false, CauseConfigMap,
			"disabled in ConfigMap key fooBarEnabled"},
		{"ConfigMap section false", on, nil, falseSection, nil, false, CauseConfigMap,
			`disabled in ConfigMap key fooBar ("false")`},
		{"global hook over ConfigMap", on, nil, values.Sections{Enabled: on}, off, false, CauseGlobalHook,
			"disabled by a global hook (fooBarEnabled: false)"},
		{"a lower false under a higher true is not the reason", off, nil, values.Sections{Enabled: on}, nil, false,
			CauseNotEnabled, "not enabled by discovery although fooBarEnabled is true"},
		{"enabled script", on, nil, values.Sections{}, nil, true, CauseEnabledScript, "disabled by its enabled script"},
		{"no say left", nil, nil, values.Sections{}, nil, false, CauseNotEnabled,
			"no longer enabled: fooBarEnabled is true in no values.yaml, ConfigMap key or global hook"},
	}
	names, err := values.ParseModuleDir("010-foo-bar")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := layout.Definition{Names: names, Common: values.Sections{Enabled: tc.common}, Own: values.Sections{Enabled: tc.own}}
			cause, text := disabledBy(d, tc.config, tc.dynamic, tc.byScript)
			if cause != tc.cause || text != tc.wantTxt {
				t.Fatalf("disabledBy = %q, %q; want %q, %q", cause, text, tc.cause, tc.wantTxt)
			}
		})
	}
}

// configMapSections are the sections of ConfigMap data.
func configMapSections(t *testing.T, data map[string]any) values.Sections {
	t.Helper()
	s, err := values.SectionsOf("ConfigMap", data)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
