package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/chartrun/manifestdiff"
	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/whatif"
)

func TestTextPlan(t *testing.T) {
	changed := whatif.Plan{Valid: true, Changed: true, Enabled: []string{"web"}, Note: whatif.HooksNote,
		Disable: []whatif.Toggle{{Module: "cache", Reason: "disabled by its enabled script"}},
		Modules: []whatif.ModulePlan{{Name: "web", Action: whatif.ActionRun, Revision: 2,
			Objects: []manifestdiff.Change{{Object: "Deployment/web", Action: manifestdiff.Changed,
				Diff: "--- Deployment/web\n+++ Deployment/web\n@@ -1 +1 @@\n-replicas: 1\n+replicas: 3\n"}}}}}
	invalid := whatif.Plan{Errors: []whatif.Problem{{Key: "web", Error: "replicas: minimum 1"}}, Note: whatif.HooksNote}
	tests := []struct {
		name   string
		plan   whatif.Plan
		colour bool
		has    []string
		hasNot []string
	}{
		{name: "changes, plain", plan: changed, has: []string{"Enabled modules: web\n", "  - disable cache: disabled by its enabled script\n",
			"module web: run (release revision 2): 1 changed\n", "  changed Deployment/web\n", "    -replicas: 1\n",
			"Note: only enabled scripts were run", "Changes would be applied."}, hasNot: []string{"\033["}},
		{name: "changes, coloured", plan: changed, colour: true,
			has: []string{"\033[31m-replicas: 1\033[0m", "\033[32m+replicas: 3\033[0m", "\033[36m@@ -1 +1 @@\033[0m"}},
		{name: "invalid", plan: invalid, has: []string{"Enabled modules: none\n", "error: key web: replicas: minimum 1\n",
			"Invalid configuration: nothing would be applied."}},
		{name: "unmet requirements", plan: whatif.Plan{Valid: true, Enabled: []string{"a"},
			Unmet: map[string][]string{"c": {"dependency 'x' not found"}, "b": {"dependency 'a' has unparsable version: ", "z"}}},
			has: []string{"  unmet requirements b: dependency 'a' has unparsable version: ; z\n  unmet requirements c: dependency 'x' not found\n"}},
		{name: "nothing", plan: whatif.Plan{Valid: true, Enabled: []string{"a"}, Modules: []whatif.ModulePlan{{Name: "a", Action: "run"}}},
			has: []string{"module a: run: no change\n", "No changes."}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := textPlan(&b, tc.plan, tc.colour); err != nil {
				t.Fatal(err)
			}
			for _, s := range tc.has {
				if !strings.Contains(b.String(), s) {
					t.Errorf("lacks %q:\n%s", s, b.String())
				}
			}
			for _, s := range tc.hasNot {
				if strings.Contains(b.String(), s) {
					t.Errorf("has %q:\n%s", s, b.String())
				}
			}
		})
	}
}

// A file that is not a ConfigMap manifest stops the plan with exit 1 and
// a message naming the file, before the operator is asked.
func TestPlanCLIBadInput(t *testing.T) {
	dir := t.TempDir()
	deploy := filepath.Join(dir, "deploy.yaml")
	if err := os.WriteFile(deploy, []byte("kind: Deployment\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	noSocket := func(string) (string, bool) { return filepath.Join(dir, "none.socket"), true }
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-f", deploy}, `-f ` + deploy + `: kind "Deployment": want a ConfigMap manifest`},
		{[]string{"-f", filepath.Join(dir, "missing.yaml")}, "missing.yaml: open"},
		{[]string{"extra"}, `unexpected argument "extra"`},
		{[]string{"--set", "a=1", "-o", "xml"}, `-o "xml": want text, json or yaml`},
		{[]string{"--set", "a=1"}, "debug socket"},
	}
	for _, tc := range tests {
		var stdout, stderr bytes.Buffer
		code := planCLI(context.Background(), tc.args, noSocket, &stdout, &stderr)
		if code != planInvalid || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("plan %v: exit %d, stderr %q; want 1 and %q", tc.args, code, stderr.String(), tc.want)
		}
	}
}
