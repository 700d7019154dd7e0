package whatif

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/moduleconfig"
)

// A candidate's ModuleConfigs are laid over the live ConfigMap: web's
// settings at version 1 are converted to version 2 and win over its
// ConfigMap section, cache's enabled=false over its enabled key (the
// plan deletes it), and the keys they hide are warnings; a ModuleConfig
// whose converted settings break the schema makes the plan invalid,
// naming the object and the field.
func TestPlanTakesModuleConfigs(t *testing.T) {
	mods := []moduleDir{{dir: "010-web", enabled: true, configSchema: replicasRequired}, {dir: "020-cache", enabled: true}}
	w := newWorld(t, mods, nil, 0)
	writeFiles(t, filepath.Join(w.dir, "010-web"), map[string]string{
		"openapi/conversions/v2.yaml": "version: 2\nconversions:\n  - .replicas = .count | del(.count)\n"})
	live := map[string]string{"web": "replicas: 1\n", "cacheEnabled": "true"}
	w.converge(t, live)
	off := false
	objects := []moduleconfig.ModuleConfig{
		{APIVersion: moduleconfig.APIVersion, Kind: moduleconfig.Kind, Metadata: moduleconfig.Metadata{Name: "web"},
			Spec: moduleconfig.Spec{Version: 1, Settings: map[string]any{"count": 3}}},
		{APIVersion: moduleconfig.APIVersion, Kind: moduleconfig.Kind, Metadata: moduleconfig.Metadata{Name: "cache"},
			Spec: moduleconfig.Spec{Enabled: &off}},
	}
	plan, err := w.planner().Plan(context.Background(), Request{Data: live, ModuleConfigs: objects})
	if err != nil {
		t.Fatal(err)
	}
	if !plan.Valid || len(plan.Disable) != 1 || plan.Disable[0].Module != "cache" {
		t.Fatalf("plan %+v, want cache disabled", plan)
	}
	var web *ModulePlan
	for i := range plan.Modules {
		if plan.Modules[i].Name == "web" {
			web = &plan.Modules[i]
		}
	}
	if web == nil || !strings.Contains(web.Diff, "+  replicas: 3") {
		t.Fatalf("web's plan %+v, want replicas 3 (count converted)", web)
	}
	warnings := strings.Join(plan.Warnings, "\n")
	for _, want := range []string{`spec.version=1 is obsolete: the latest is 2`, `ConfigMap key "web" is ignored`, `ConfigMap key "cacheEnabled" is ignored`} {
		if !strings.Contains(warnings, want) {
			t.Errorf("warnings lack %q:\n%s", want, warnings)
		}
	}
	objects[0].Spec.Settings = map[string]any{"count": "three"}
	plan, err = w.planner().Plan(context.Background(), Request{Data: live, ModuleConfigs: objects})
	if err != nil {
		t.Fatal(err)
	}
	if plan.Valid || len(plan.Errors) != 1 || plan.Errors[0].Key != "ModuleConfig/web" || !strings.Contains(plan.Errors[0].Error, "replicas") {
		t.Fatalf("plan %+v, want invalid naming ModuleConfig/web and replicas", plan)
	}
}
