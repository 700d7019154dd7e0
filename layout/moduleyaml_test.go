package layout_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/values"
)

const moduleYAMLPath = "/x/020-b/module.yaml"

// A Deckhouse module.yaml: requirements.modules and requirements.kubernetes
// are read, "!optional" only as the last token; every other key is accepted
// and listed; a self-requirement is dropped with a warning.
func TestParseModuleYAML(t *testing.T) {
	for _, tc := range []struct {
		name     string
		yaml     string
		want     layout.Requirements
		ignored  []string
		warnings []string
	}{
		{name: "empty file"},
		{name: "requirements null", yaml: "requirements:\n", want: layout.Requirements{Declared: true}},
		{name: "requires nothing", yaml: "requirements: {modules: {}}\n", want: layout.Requirements{Declared: true}},
		{name: "a Deckhouse file", yaml: `
name: b
weight: 340
critical: true
stage: General Availability
namespace: d8-b
tags: [network]
subsystems: [core]
descriptions: {en: B, ru: Б}
accessibility: {editions: {_default: {available: true}}}
requirements:
  deckhouse: ">= 1.61"
  bootstrapped: "true"
  kubernetes: ">= 1.28"
  modules:
    zeta: "> 1.67.0"
    alpha: ">= 0.0.0"
    test: ">v0.22.1 !optional"
`,
			want: layout.Requirements{Kubernetes: ">= 1.28", Modules: []layout.ModuleRequirement{
				{Module: "alpha", Constraint: ">= 0.0.0"},
				{Module: "test", Constraint: ">v0.22.1", Optional: true},
				{Module: "zeta", Constraint: "> 1.67.0"},
			}, Declared: true},
			ignored: []string{"accessibility", "critical", "descriptions", "name", "namespace",
				"requirements.bootstrapped", "requirements.deckhouse", "stage", "subsystems", "tags", "weight"}},
		{name: "!optional without a space", yaml: "requirements:\n  modules:\n    a: '>=1.0!optional'\n    c: ' ~1.2 !optional  '\n",
			want: layout.Requirements{Modules: []layout.ModuleRequirement{
				{Module: "a", Constraint: ">=1.0", Optional: true}, {Module: "c", Constraint: "~1.2", Optional: true}}, Declared: true}},
		{name: "only kubernetes", yaml: "requirements:\n  kubernetes: '>= 1.28, < 1.40'\n",
			want: layout.Requirements{Kubernetes: ">= 1.28, < 1.40", Declared: true}},
		{name: "a number is read as written", yaml: "requirements:\n  kubernetes: 1.20\n  modules: {a: 1}\n",
			want: layout.Requirements{Kubernetes: "1.20", Modules: []layout.ModuleRequirement{{Module: "a", Constraint: "1"}}, Declared: true}},
		{name: "an anchor's value", yaml: "x-any: &any '>= 0.0.0'\nrequirements: {modules: {a: *any}}\n",
			want:    layout.Requirements{Modules: []layout.ModuleRequirement{{Module: "a", Constraint: ">= 0.0.0"}}, Declared: true},
			ignored: []string{"x-any"}},
		{name: "unknown keys", yaml: "foo: 1\nrequirements:\n  extra: {x: 1}\n  kubernetes: ''\n",
			want: layout.Requirements{Declared: true}, ignored: []string{"foo", "requirements.extra"}},
		{name: "self-requirement", yaml: "requirements:\n  modules:\n    b: '>= 0.0.0'\n    a: '>= 1'\n",
			want:     layout.Requirements{Modules: []layout.ModuleRequirement{{Module: "a", Constraint: ">= 1"}}, Declared: true},
			warnings: []string{moduleYAMLPath + ": requirements.modules.b: a module cannot require itself; the requirement is dropped"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := layout.ParseModuleYAML(moduleYAMLPath, "b", []byte(tc.yaml))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got.Requirements, tc.want) {
				t.Errorf("requirements %+v, want %+v", got.Requirements, tc.want)
			}
			if !reflect.DeepEqual(got.Ignored, tc.ignored) || !reflect.DeepEqual(got.Warnings, tc.warnings) {
				t.Errorf("ignored %q, warnings %q; want %q, %q", got.Ignored, got.Warnings, tc.ignored, tc.warnings)
			}
			// Any requirements key, empty included, leaves the weight order.
			if got.Requirements.OrdersByRequirements() != strings.Contains(tc.yaml, "requirements:") {
				t.Errorf("OrdersByRequirements = %v with %q", got.Requirements.OrdersByRequirements(), tc.yaml)
			}
		})
	}
}

// module.yaml's drift key overrides the operator's drift setting for the
// module; null or no key follows the setting.
func TestParseModuleYAMLDrift(t *testing.T) {
	for yaml, want := range map[string]string{"": "", "drift: restore\n": "restore", "drift: off\n": "off",
		"drift: report\n": "report", "drift:\n": ""} {
		got, err := layout.ParseModuleYAML(moduleYAMLPath, "b", []byte(yaml))
		if err != nil || got.Release.Drift != want || len(got.Ignored) != 0 {
			t.Errorf("%q: drift %q, ignored %v (%v), want %q", yaml, got.Release.Drift, got.Ignored, err, want)
		}
	}
}

// module.yaml's readiness key overrides the operator's wait settings for
// the module; null or no key follows them.
func TestParseModuleYAMLReadiness(t *testing.T) {
	yes, no := true, false
	for _, tc := range []struct {
		yaml    string
		wait    *bool
		timeout time.Duration
	}{
		{yaml: ""},
		{yaml: "readiness:\n"},
		{yaml: "readiness:\n  wait: true\n", wait: &yes},
		{yaml: "readiness:\n  wait: false\n  timeout: 90s\n", wait: &no, timeout: 90 * time.Second},
		{yaml: "readiness: {timeout: 2m}\n", timeout: 2 * time.Minute},
		{yaml: "readiness:\n  wait:\n  timeout:\n"},
	} {
		got, err := layout.ParseModuleYAML(moduleYAMLPath, "b", []byte(tc.yaml))
		if err != nil || !reflect.DeepEqual(got.Release.Wait, tc.wait) || got.Release.WaitTimeout != tc.timeout || len(got.Ignored) != 0 {
			t.Errorf("%q: wait %v, timeout %v, ignored %v (%v); want %v, %v", tc.yaml, got.Release.Wait,
				got.Release.WaitTimeout, got.Ignored, err, tc.wait, tc.timeout)
		}
	}
}

// Bad input is an error that starts with the file and the key and gives
// the line.
func TestParseModuleYAMLErrors(t *testing.T) {
	for _, tc := range []struct {
		name, yaml, want string
	}{
		{"bad YAML", "requirements: [\n", moduleYAMLPath + ": yaml: line "},
		{"top level a list", "- a\n", moduleYAMLPath + ": top level: want a mapping, got a list (line 1)"},
		{"requirements a list", "requirements: [a]\n", moduleYAMLPath + ": requirements: want a mapping, got a list (line 1)"},
		{"modules a string", "requirements:\n  modules: a\n", moduleYAMLPath + `: requirements.modules: want a mapping, got !!str "a" (line 2)`},
		{"constraint a mapping", "requirements:\n  modules:\n    a: {x: 1}\n", moduleYAMLPath + ": requirements.modules.a: want a string, got a mapping (line 3)"},
		{"constraint null", "requirements:\n  modules:\n    a:\n", moduleYAMLPath + `: requirements.modules.a: want a constraint (">= 0.0.0" for any version), got null`},
		{"only !optional", "requirements:\n  modules:\n    a: '!optional'\n", moduleYAMLPath + `: requirements.modules.a: want a constraint (">= 0.0.0" for any version), got none (line 3)`},
		{"kubernetes a list", "requirements:\n  kubernetes: [1]\n", moduleYAMLPath + ": requirements.kubernetes: want a string, got a list (line 2)"},
		{"bad module constraint", "requirements:\n  modules:\n    a: '>= banana'\n", moduleYAMLPath + `: requirements.modules.a: constraint ">= banana": `},
		{"!optional not last", "requirements:\n  modules:\n    a: '>= 1.0 !optional < 2'\n", moduleYAMLPath + `: requirements.modules.a: constraint ">= 1.0 !optional < 2": `},
		{"bad kubernetes constraint", "requirements:\n  kubernetes: '>= banana'\n", moduleYAMLPath + `: requirements.kubernetes: constraint ">= banana": `},
		{"key given twice", "requirements:\n  modules:\n    a: '1'\n    a: '2'\n", moduleYAMLPath + ": requirements.modules.a: given twice, also on line 3 (line 4)"},
		{"drift unknown", "drift: fix\n", moduleYAMLPath + `: drift: want one of report, restore, off, got "fix" (line 1)`},
		{"drift a mapping", "drift: {a: 1}\n", moduleYAMLPath + ": drift: want a string, got a mapping (line 1)"},
		{"readiness a string", "readiness: yes\n", moduleYAMLPath + `: readiness: want a mapping, got !!str "yes" (line 1)`},
		{"wait a string", "readiness:\n  wait: \"true\"\n", moduleYAMLPath + `: readiness.wait: want true or false, got !!str "true" (line 2)`},
		{"wait a list", "readiness:\n  wait: [true]\n", moduleYAMLPath + `: readiness.wait: want true or false, got a list (line 2)`},
		{"timeout no unit", "readiness:\n  timeout: 300\n", moduleYAMLPath + `: readiness.timeout: want a duration such as 90s or 5m, got "300" (line 2)`},
		{"timeout zero", "readiness:\n  timeout: 0s\n", moduleYAMLPath + `: readiness.timeout: want a duration above 0, got "0s" (line 2)`},
		{"readiness typo", "readiness:\n  wiat: true\n", moduleYAMLPath + `: readiness.wiat: unknown key; want wait or timeout (line 2)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := layout.ParseModuleYAML(moduleYAMLPath, "b", []byte(tc.yaml))
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("error %v, want one starting %q", err, tc.want)
			}
		})
	}
}

// Chart.yaml's version as written, "" when the file or the key is absent; a
// file that does not parse is an error naming it.
func TestReadChartVersion(t *testing.T) {
	for _, tc := range []struct {
		name, chart, want, wantErr string
	}{
		{name: "no Chart.yaml"},
		{name: "version", chart: "apiVersion: v2\nname: a\nversion: 1.2.3-rc1\n", want: "1.2.3-rc1"},
		{name: "quoted", chart: "version: 'v0.21.1'\n", want: "v0.21.1"},
		{name: "a number as written", chart: "version: 1.20\n", want: "1.20"},
		{name: "no version key", chart: "name: a\n"},
		{name: "empty file", chart: ""},
		{name: "bad YAML", chart: "version: [\n", wantErr: "Chart.yaml: yaml: line "},
		{name: "version a mapping", chart: "version: {x: 1}\n", wantErr: "Chart.yaml: version: want a string, got a mapping (line 1)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if tc.name != "no Chart.yaml" {
				writeFile(t, filepath.Join(dir, "Chart.yaml"), tc.chart)
			}
			got, err := layout.ReadChartVersion(dir)
			if tc.wantErr != "" {
				if err == nil || !strings.HasPrefix(err.Error(), filepath.Join(dir, tc.wantErr)) {
					t.Fatalf("error %v, want %s/%s...", err, dir, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("ReadChartVersion = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

// Scan fills each definition from its module.yaml and Chart.yaml. A broken
// module.yaml leaves the module out as a LoadError naming file and key; a
// broken Chart.yaml only costs the version, with a warning.
func TestScanReadsModuleYAMLAndChartVersion(t *testing.T) {
	mods := t.TempDir()
	files := map[string]string{
		"010-a/Chart.yaml":  "name: a\nversion: 1.2.3-rc1\n",
		"020-b/module.yaml": "weight: 5\nrequirements:\n  modules: {a: '>= 1.0 !optional'}\n",
		"020-b/Chart.yaml":  "name: b\nversion: '0.1.0'\n",
		"030-c/module.yaml": "requirements: {kubernetes: '>= 1.28'}\n",
		"040-d/module.yaml": "requirements:\n  modules:\n    a: '>= banana'\n",
		"050-e/Chart.yaml":  "version: [\n",
		"060-f/module.yaml": "requirements: {modules: {f: '>= 0.0.0'}}\n",
		"070-g/values.yaml": "g: {}\n",
	}
	for path, text := range files {
		writeFile(t, filepath.Join(mods, path), text)
	}
	defs, errs := layout.Scan([]string{mods}, values.Sections{})
	if len(errs) != 1 || !strings.HasPrefix(errs[0].Error(), filepath.Join(mods, "040-d", "module.yaml")+`: requirements.modules.a: constraint ">= banana"`) {
		t.Fatalf("errors %v, want only 040-d's module.yaml naming requirements.modules.a", errs)
	}
	if got := layout.Unloaded(errs); !reflect.DeepEqual(got, []string{"d"}) {
		t.Fatalf("Unloaded = %v, want [d]", got)
	}
	type seen struct {
		version      string
		requirements layout.Requirements
		ignored      []string
		warnings     int
	}
	want := map[string]seen{
		"a": {version: "1.2.3-rc1"},
		"b": {version: "0.1.0", ignored: []string{"weight"},
			requirements: layout.Requirements{Modules: []layout.ModuleRequirement{{Module: "a", Constraint: ">= 1.0", Optional: true}}, Declared: true}},
		"c": {requirements: layout.Requirements{Kubernetes: ">= 1.28", Declared: true}},
		"e": {warnings: 1},
		"f": {warnings: 1, requirements: layout.Requirements{Declared: true}},
		"g": {},
	}
	for _, d := range defs {
		got := seen{d.Version, d.Requirements, d.ModuleYAMLIgnored, len(d.Warnings)}
		if w, ok := want[d.Names.Name]; !ok || !reflect.DeepEqual(got, w) {
			t.Errorf("module %s: %+v (warnings %q), want %+v", d.Names.Name, got, d.Warnings, w)
		}
		delete(want, d.Names.Name)
	}
	if len(want) != 0 {
		t.Errorf("modules not loaded: %v", want)
	}
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
