package operator

import (
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/values"
)

// layerSays writes each layer's say as "layer=key:value" ("-" for none).
func layerSays(layers []board.EnabledLayer) string {
	var out []string
	for _, l := range layers {
		v := "-"
		if l.Value != nil {
			v = map[bool]string{true: "true", false: "false"}[*l.Value]
		}
		out = append(out, l.Layer+"="+l.Key+":"+v)
	}
	return strings.Join(out, " ")
}

// The enabled decision records every layer's say, the script's answer and
// a sentence naming what decided.
func TestEnabledDecision(t *testing.T) {
	on, off := map[string]bool{"fooBar": true}, map[string]bool{"fooBar": false}
	falseSection := configMapSections(t, map[string]any{"fooBar": "false"})
	names, err := values.ParseModuleDir("010-foo-bar")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name             string
		common, own      map[string]bool
		config           values.Sections
		dynamic          map[string]bool
		script, enabled  bool // has a script; discovery enabled it
		byScript         bool
		leftOut          string
		unmet            []string
		wantEnabled      bool
		wantScript, want string
		wantLayers       string
	}{
		{name: "script said false", common: on, script: true, byScript: true, wantScript: "false",
			want:       "disabled by its enabled script",
			wantLayers: "modules values.yaml=fooBarEnabled:true module values.yaml=fooBarEnabled:- ConfigMap=fooBarEnabled:- global hook=fooBarEnabled:-"},
		{name: "script said true", own: on, script: true, enabled: true, wantEnabled: true, wantScript: "true",
			want: "enabled by module values.yaml key fooBarEnabled; its enabled script said true"},
		{name: "no script", common: off, config: values.Sections{Enabled: on}, enabled: true, wantEnabled: true,
			wantScript: "none", want: "enabled by ConfigMap key fooBarEnabled; no enabled script",
			wantLayers: "modules values.yaml=fooBarEnabled:false module values.yaml=fooBarEnabled:- ConfigMap=fooBarEnabled:true global hook=fooBarEnabled:-"},
		{name: "ConfigMap section false: script not asked", common: on, config: falseSection, script: true,
			want:       `disabled in ConfigMap key fooBar ("false")`,
			wantLayers: "modules values.yaml=fooBarEnabled:true module values.yaml=fooBarEnabled:- ConfigMap=fooBar:false global hook=fooBarEnabled:-"},
		{name: "global hook", common: on, dynamic: off, want: "disabled by a global hook (fooBarEnabled: false)"},
		{name: "enabled by a global hook", dynamic: on, enabled: true, wantEnabled: true, wantScript: "none",
			want: "enabled by global hook key fooBarEnabled; no enabled script"},
		{name: "left out", common: on, leftOut: "left out of discovery: x", want: "left out of discovery: x"},
		{name: "unmet requirements: the final say, script not asked", common: on, script: true,
			unmet: []string{"dependency 'a' is disabled"},
			want:  "turned off because of unmet requirements: dependency 'a' is disabled"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			def := layout.Definition{Names: names, HasEnabledScript: tc.script,
				Common: values.Sections{Enabled: tc.common}, Own: values.Sections{Enabled: tc.own}}
			d := enabledDecision(whyInput{def: def, config: tc.config, dynamic: tc.dynamic, enabled: tc.enabled,
				byScript: tc.byScript, leftOut: tc.leftOut, unmet: tc.unmet})
			if d.Module != "foo-bar" || d.Enabled != tc.wantEnabled || d.Script != tc.wantScript || d.Reason != tc.want {
				t.Fatalf("decision %+v; want enabled=%t script=%q reason %q", d, tc.wantEnabled, tc.wantScript, tc.want)
			}
			if got := layerSays(d.Layers); tc.wantLayers != "" && got != tc.wantLayers {
				t.Errorf("layers\n got  %s\n want %s", got, tc.wantLayers)
			}
		})
	}
}
