package chartrun

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/test/scenario"
)

func fileNames(t *testing.T, dir string) []string {
	t.Helper()
	c, err := loadChart(dir, "demo")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range append(c.Templates, c.Files...) {
		names = append(names, f.Name)
	}
	sort.Strings(names)
	return names
}

// writeFiles writes files into a new module dir.
func writeFiles(t *testing.T, files map[string]string) string {
	return scenario.TempTree(t, files, 0o644)
}

func TestLoadChartLeavesOutTheModulesFiles(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"Chart.yaml":                 "apiVersion: v2\nname: demo\nversion: 0.1.0\n",
		"values.yaml":                "demo: {}\n",
		"enabled":                    "#!/bin/sh\necho true > $MODULE_ENABLED_RESULT\n",
		"hooks/startup.sh":           "#!/bin/sh\n",
		"hooks/lib/x.py":             "",
		"openapi/config-values.yaml": "type: object\n",
		"templates/cm.yaml":          "kind: ConfigMap\n",
		"templates/.hidden.yaml":     "ignored by helm's defaults\n",
		"files/skipped.txt":          "",
		"files/kept.txt":             "",
		".helmignore":                "files/skipped.txt\n",
	})
	want := []string{".helmignore", "files/kept.txt", "openapi/config-values.yaml", "templates/cm.yaml"}
	if got := fileNames(t, dir); !reflect.DeepEqual(got, want) {
		t.Fatalf("chart files %v, want %v", got, want)
	}
}

func TestLoadChartFollowsSymlinks(t *testing.T) {
	shared := writeFiles(t, map[string]string{"_helpers.tpl": "{{ define \"x\" }}x{{ end }}\n"})
	dir := writeFiles(t, map[string]string{"Chart.yaml": "apiVersion: v2\nname: demo\nversion: 0.1.0\n", "templates/cm.yaml": "a: b\n"})
	if err := os.Symlink(shared, filepath.Join(dir, "templates", "lib")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(dir, filepath.Join(dir, "templates", "loop")); err != nil {
		t.Fatal(err)
	}
	want := []string{"templates/cm.yaml", "templates/lib/_helpers.tpl"}
	if got := fileNames(t, dir); !reflect.DeepEqual(got, want) {
		t.Fatalf("chart files %v, want %v", got, want)
	}
}

func TestLoadChartWithoutChartYAML(t *testing.T) {
	if _, err := loadChart(writeFiles(t, map[string]string{"values.yaml": "a: 1\n", "hooks/h": ""}), "demo"); !errors.Is(err, ErrNoChart) {
		t.Fatalf("module without a chart: %v, want ErrNoChart", err)
	}
	c, err := loadChart(writeFiles(t, map[string]string{"templates/cm.yaml": "a: b\n"}), "some-module")
	if err != nil {
		t.Fatal(err)
	}
	if c.Metadata.Name != "some-module" || len(c.Templates) != 1 {
		t.Fatalf("templates without Chart.yaml: %+v, %d templates", c.Metadata, len(c.Templates))
	}
}

func TestLoadChartInvalidChartYAML(t *testing.T) {
	dir := writeFiles(t, map[string]string{"Chart.yaml": "apiVersion: v2\nname: [broken\n"})
	_, err := loadChart(dir, "demo")
	if err == nil || !strings.Contains(err.Error(), "Chart.yaml") || !strings.Contains(err.Error(), dir) {
		t.Fatalf("invalid Chart.yaml: %v", err)
	}
}

func TestChecksum(t *testing.T) {
	sum := func(manifests string, values map[string]any) string {
		s, err := Checksum(manifests, values)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	base := sum("m", map[string]any{"a": 1, "b": map[string]any{"c": "d", "e": "f"}})
	if again := sum("m", map[string]any{"b": map[string]any{"e": "f", "c": "d"}, "a": 1}); again != base {
		t.Fatal("checksum depends on map order")
	}
	for name, other := range map[string]string{
		"manifests": sum("n", map[string]any{"a": 1, "b": map[string]any{"c": "d", "e": "f"}}),
		"values":    sum("m", map[string]any{"a": 2, "b": map[string]any{"c": "d", "e": "f"}}),
	} {
		if other == base {
			t.Errorf("a change of %s keeps the checksum", name)
		}
	}
	if len(base) > 63 {
		t.Fatalf("checksum %q does not fit a label value", base)
	}
	if _, err := Checksum("m", map[string]any{"f": func() {}}); err == nil {
		t.Fatal("values that are not JSON accepted")
	}
}

func TestJoinManifests(t *testing.T) {
	got := joinManifests(map[string]string{
		"demo/templates/b.yaml":     "kind: B\n",
		"demo/templates/a.yaml":     "\nkind: A\n\n",
		"demo/templates/empty.yaml": "  \n",
		"demo/templates/NOTES.txt":  "thanks",
	})
	want := "---\n# Source: demo/templates/a.yaml\nkind: A\n---\n# Source: demo/templates/b.yaml\nkind: B\n"
	if got != want {
		t.Fatalf("joinManifests:\n%s\nwant:\n%s", got, want)
	}
}

// Rendered manifests are read as helm splits them (withoutHooks): a
// document with the hook annotation (whatever its value) is a hook, not an
// object of the release.
func TestManifestObjects(t *testing.T) {
	withAHook := joinManifests(map[string]string{
		"t/a.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  annotations:\n    other: x\n",
		"t/h.yaml": "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: h\n  annotations:\n    helm.sh/hook: post-install\n",
		"t/e.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: e\n  annotations:\n    helm.sh/hook: \"\"\n",
	})
	a := Object{APIVersion: "v1", Kind: "ConfigMap", Name: "a"}
	for _, tc := range []struct {
		name     string
		manifest string
		hooks    hookFilter
		want     []Object
	}{
		{"kinds, namespaces, comments", joinManifests(map[string]string{
			"t/a.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n",
			"t/b.yaml": "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: b\n---\n# only a comment\n",
			"t/c.yaml": "apiVersion: v1\nkind: Secret\nmetadata:\n  name: c\n  namespace: other\n",
		}), withHooks, []Object{
			a,
			{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "ClusterRole", Name: "b"},
			{APIVersion: "v1", Kind: "Secret", Namespace: "other", Name: "c"},
		}},
		{"without hooks", withAHook, withoutHooks, []Object{a}},
		{"with hooks", withAHook, withHooks, []Object{a,
			{APIVersion: "v1", Kind: "ConfigMap", Name: "e"}, {APIVersion: "batch/v1", Kind: "Job", Name: "h"}}},
	} {
		got, err := manifestObjects(tc.manifest, tc.hooks)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: objects %v, want %v", tc.name, got, tc.want)
		}
	}
}
