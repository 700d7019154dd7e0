package main

import (
	"reflect"
	"testing"

	"github.com/addon-actors/addon-operator/layout"
)

// -requires N makes the first N modules roots and has every other module
// require one of them, round-robin; 0 gives no module a module.yaml.
func TestRequiredRoot(t *testing.T) {
	cases := []struct {
		n, roots int
		want     []int
	}{
		{n: 3, roots: 0, want: []int{-1, -1, -1}},
		{n: 5, roots: 1, want: []int{-1, 0, 0, 0, 0}},
		{n: 7, roots: 3, want: []int{-1, -1, -1, 0, 1, 2, 0}},
		{n: 2, roots: 4, want: []int{-1, -1}},
	}
	for _, tc := range cases {
		var got []int
		for i := range tc.n {
			got = append(got, requiredRoot(i, tc.roots))
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("n %d roots %d: %v, want %v", tc.n, tc.roots, got, tc.want)
		}
	}
}

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
