package moduleconfig_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/moduleconfig"
	"github.com/addon-actors/addon-operator/values/configmap"
)

// Export gives global and one object per module the ConfigMap says
// anything of; laying them over an empty ConfigMap gives back the same
// configuration (the migration's round trip).
func TestExportRoundTrips(t *testing.T) {
	data := map[string]string{
		"global":         "clusterName: prod\n",
		"web":            "replicas: 2\nimage: {tag: v1}\n",
		"webEnabled":     "true",
		"cache":          "false",
		"dbMaintenance":  "NoResourceReconciliation",
		"dbEnabled":      "false",
		"queue":          "- a\n- b\n",
		"Not-A-Module":   "x: 1",
		"metricsEnabled": "true",
	}
	sections, err := configmap.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	objects, warnings := moduleconfig.Export(sections)
	var names []string
	for _, mc := range objects {
		names = append(names, mc.Metadata.Name)
	}
	if !reflect.DeepEqual(names, []string{"global", "cache", "db", "metrics", "web"}) {
		t.Fatalf("exported %v", names)
	}
	if len(warnings) != 2 || !strings.Contains(warnings[0], `"queue": not exported: its section is a list`) ||
		!strings.Contains(warnings[1], `"Not-A-Module": not exported`) {
		t.Fatalf("warnings %q", warnings)
	}
	back, hidden, err := moduleconfig.Overlay(map[string]string{"queue": data["queue"]}, objects)
	if err != nil || len(hidden) != 0 {
		t.Fatalf("overlay: %v, hidden %q", err, hidden)
	}
	again, err := configmap.Parse(back)
	if err != nil {
		t.Fatal(err)
	}
	// What is left out stays in the ConfigMap; a section "false" comes
	// back as the enabled key false, which says the same.
	sections.Unknown, sections.FalseSections = nil, nil
	if !reflect.DeepEqual(again, sections) {
		t.Fatalf("round trip:\n got %#v\nwant %#v", again, sections)
	}
	text, err := moduleconfig.Marshal(objects[4:])
	want := "---\napiVersion: addon-operator.io/v1alpha1\nkind: ModuleConfig\nmetadata:\n  name: web\nspec:\n  enabled: true\n" +
		"  settings:\n    image:\n      tag: v1\n    replicas: 2\n  version: 1\n"
	if err != nil || string(text) != want {
		t.Fatalf("Marshal: %v\n%s\nwant\n%s", err, text, want)
	}
	parsed, err := moduleconfig.Parse("export", text)
	if err != nil || len(parsed.ModuleConfigs) != 1 {
		t.Fatalf("the export does not parse back: %v", err)
	}
}

// A module's ModuleConfig wins over its ConfigMap section, enabled and
// maintenance keys, which are named as ignored; an object without
// enabled leaves the enabled flag to the other layers (the ConfigMap's
// key is ignored all the same).
func TestOverlayPrecedence(t *testing.T) {
	data := map[string]string{"global": "a: 1\n", "web": "replicas: 1\n", "webEnabled": "false", "webMaintenance": "NoResourceReconciliation",
		"cache": "size: 1\n", "cacheEnabled": "true"}
	on := true
	objects := []moduleconfig.ModuleConfig{
		object("web", 3, &on, map[string]any{"replicas": 5}),
		object("cache", 1, nil, nil),
		object("global", 1, nil, map[string]any{"b": 2}),
	}
	got, hidden, err := moduleconfig.Overlay(data, objects)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"global": "b: 2\n", "web": "replicas: 5\n", "webEnabled": "true"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("data %q, want %q", got, want)
	}
	if len(hidden) != 6 || !strings.Contains(hidden[0], `ConfigMap key "web" is ignored: ModuleConfig "web" configures web`) ||
		!strings.Contains(hidden[2], `"webMaintenance"`) || !strings.Contains(hidden[5], `"global"`) {
		t.Fatalf("hidden %q", hidden)
	}
	if data["webEnabled"] != "false" {
		t.Fatal("Overlay changed the data it was given")
	}
}
