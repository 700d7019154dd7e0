package main

import (
	"reflect"
	"testing"

	"github.com/addon-actors/addon-operator/layout"
)

// The operator reads the generated module.yaml as one requirement of the
// root, so the module is ordered by it; no root, no requirement.
func TestModuleYAML(t *testing.T) {
	cases := []struct {
		root int
		want []layout.ModuleRequirement
	}{
		{root: -1, want: nil},
		{root: 4, want: []layout.ModuleRequirement{{Module: "m4", Constraint: ">= 0.0.0"}}},
	}
	for _, tc := range cases {
		got, err := layout.ParseModuleYAML("module.yaml", "m9", []byte(moduleYAML(tc.root)))
		if err != nil {
			t.Fatalf("root %d: %v", tc.root, err)
		}
		if !reflect.DeepEqual(got.Requirements.Modules, tc.want) {
			t.Errorf("root %d: requirements %v, want %v", tc.root, got.Requirements.Modules, tc.want)
		}
		if got.Requirements.OrdersByRequirements() != (tc.root >= 0) {
			t.Errorf("root %d: ordered by requirements %v", tc.root, got.Requirements.OrdersByRequirements())
		}
	}
}
