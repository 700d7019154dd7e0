package layout_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/values"
)

// requires builds requirements.modules from "name" (required) and "name?"
// (optional) with constraint c.
func requires(c string, names ...string) []layout.ModuleRequirement {
	var out []layout.ModuleRequirement
	for _, n := range names {
		name, optional := strings.CutSuffix(n, "?")
		out = append(out, layout.ModuleRequirement{Module: name, Constraint: c, Optional: optional})
	}
	return out
}

// Each unmet requirement is one sentence in Deckhouse's words, sorted; an
// optional one counts only while its module is enabled; versions lose their
// pre-release and metadata before the check.
func TestUnmet(t *testing.T) {
	enabled := map[string]string{"a": "1.2.3", "rc": "1.2.3-rc1", "empty": "", "bad": "banana", "vpref": "v0.21.1"}
	known := func(name string) bool { return name != "ghost" }
	for _, tc := range []struct {
		name     string
		r        layout.Requirements
		kube     string
		nilKnown bool
		want     []string
	}{
		{name: "no requirements", kube: ""},
		{name: "met", r: layout.Requirements{Modules: requires(">= 1.0", "a")}},
		{name: "disabled", r: layout.Requirements{Modules: requires(">= 0.0.0", "off")},
			want: []string{"dependency 'off' is disabled"}},
		{name: "not found", r: layout.Requirements{Modules: requires(">= 0.0.0", "ghost")},
			want: []string{"dependency 'ghost' not found"}},
		{name: "known nil takes every module to exist", r: layout.Requirements{Modules: requires(">= 0.0.0", "ghost")}, nilKnown: true,
			want: []string{"dependency 'ghost' is disabled"}},
		{name: "optional, disabled or absent", r: layout.Requirements{Modules: requires(">= 9", "off?", "ghost?")}},
		{name: "optional, enabled, met", r: layout.Requirements{Modules: requires("~1.2", "a?")}},
		{name: "optional, enabled, not met", r: layout.Requirements{Modules: requires("> 2.0", "a?")},
			want: []string{"dependency 'a' not meet the version constraint: the '1.2.3' version does not satisfy the '> 2.0' constraint"}},
		{name: "pre-release stripped", r: layout.Requirements{Modules: requires(">= 1.2.3", "rc")}},
		{name: "pre-release stripped, not met", r: layout.Requirements{Modules: requires("< 1.2.3", "rc")},
			want: []string{"dependency 'rc' not meet the version constraint: the '1.2.3-rc1' version does not satisfy the '< 1.2.3' constraint"}},
		{name: "v prefix", r: layout.Requirements{Modules: requires("> v0.22.1", "vpref")},
			want: []string{"dependency 'vpref' not meet the version constraint: the 'v0.21.1' version does not satisfy the '> v0.22.1' constraint"}},
		{name: "empty version", r: layout.Requirements{Modules: requires(">= 0.0.0", "empty")},
			want: []string{"dependency 'empty' has unparsable version: "}},
		{name: "unparsable version", r: layout.Requirements{Modules: requires(">= 0.0.0", "bad?")},
			want: []string{"dependency 'bad' has unparsable version: banana"}},
		{name: "constraint built by hand, unparsable", r: layout.Requirements{Modules: requires(">= banana", "a")},
			want: []string{`dependency 'a' has unparsable constraint '>= banana': improper constraint: ">= banana"`}},
		{name: "kubernetes met", r: layout.Requirements{Kubernetes: ">= 1.28"}, kube: "v1.37.1"},
		{name: "kubernetes not met", r: layout.Requirements{Kubernetes: ">= 1.38"}, kube: "v1.37.1",
			want: []string{`current kubernetes version is not suitable: "1.37.1" is less than "1.38"`}},
		{name: "kubernetes with metadata", r: layout.Requirements{Kubernetes: ">= 1.37.1, < 1.38"}, kube: "v1.37.1+k3s1"},
		{name: "kubernetes with a pre-release", r: layout.Requirements{Kubernetes: ">= 1.37.1"}, kube: "v1.37.1-eks-4f4795d"},
		{name: "kubernetes version unknown", r: layout.Requirements{Kubernetes: ">= 1.28"}, kube: "",
			want: []string{`kubernetes version "" unparsable: invalid semantic version`}},
		{name: "no kubernetes constraint, version unknown", r: layout.Requirements{Modules: requires(">= 1", "a")}, kube: ""},
		{name: "several, sorted",
			r:    layout.Requirements{Kubernetes: "< 1.30", Modules: requires(">= 0.0.0", "off", "a", "ghost", "ghost?")},
			kube: "1.37.1",
			want: []string{`current kubernetes version is not suitable: "1.37.1" is greater than or equal to "1.30"`,
				"dependency 'ghost' not found", "dependency 'off' is disabled"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k := known
			if tc.nilKnown {
				k = nil
			}
			if got := tc.r.Unmet(enabled, k, tc.kube); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Unmet = %q, want %q", got, tc.want)
			}
		})
	}
}

// def is a module named name requiring reqs ("x" required, "x?" optional).
func def(name string, reqs ...string) layout.Definition {
	return layout.Definition{Names: values.Names{Name: name}, Requirements: layout.Requirements{Modules: requires(">= 0.0.0", reqs...)}}
}

func namesOf(defs []layout.Definition) []string {
	out := []string{}
	for _, d := range defs {
		out = append(out, d.Names.Name)
	}
	return out
}

// Every module comes after the modules it requires that are there; the
// given (weight) order holds otherwise.
func TestRequirementOrder(t *testing.T) {
	for _, tc := range []struct {
		name string
		defs []layout.Definition
		want []string
	}{
		{"none", nil, []string{}},
		{"no requirements keep the order", []layout.Definition{def("b"), def("a"), def("c")}, []string{"b", "a", "c"}},
		{"already in order", []layout.Definition{def("a"), def("b", "a"), def("c")}, []string{"a", "b", "c"}},
		{"lower weight requiring a higher weight comes after it",
			[]layout.Definition{def("a", "c"), def("b"), def("c")}, []string{"b", "c", "a"}},
		{"chain", []layout.Definition{def("a", "b"), def("b", "c"), def("c"), def("d")}, []string{"c", "b", "a", "d"}},
		{"diamond", []layout.Definition{def("d", "b", "c"), def("b", "a"), def("c", "a"), def("a")}, []string{"a", "b", "c", "d"}},
		{"optional orders too", []layout.Definition{def("a", "b?"), def("b")}, []string{"b", "a"}},
		{"missing target ignored", []layout.Definition{def("a", "zz"), def("b")}, []string{"a", "b"}},
		{"self ignored", []layout.Definition{def("a", "a"), def("b")}, []string{"a", "b"}},
		{"stable around a move", []layout.Definition{def("x"), def("y", "z"), def("z"), def("w"), def("v", "w")},
			[]string{"x", "z", "y", "w", "v"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := layout.RequirementOrder(tc.defs)
			if err != nil || !reflect.DeepEqual(namesOf(got), tc.want) {
				t.Fatalf("RequirementOrder = %v, %v; want %v", namesOf(got), err, tc.want)
			}
		})
	}
}

// A cycle is a *CycleError naming exactly the modules on cycles (not those
// that only require one), with one shortest cycle per group.
func TestRequirementOrderCycles(t *testing.T) {
	for _, tc := range []struct {
		name    string
		defs    []layout.Definition
		modules []string
		cycles  [][]string
		text    string
	}{
		{"2-cycle", []layout.Definition{def("b", "a"), def("a", "b"), def("c")},
			[]string{"a", "b"}, [][]string{{"a", "b", "a"}},
			"module requirements form a cycle: a -> b -> a"},
		{"2-cycle, 3-cycle, an unrelated module and one requiring a cycle",
			[]layout.Definition{def("f"), def("e", "c"), def("a", "b"), def("d", "e"), def("b", "a?"), def("c", "d"), def("g", "c")},
			[]string{"a", "b", "c", "d", "e"}, [][]string{{"a", "b", "a"}, {"c", "d", "e", "c"}},
			"module requirements form cycles: a -> b -> a; c -> d -> e -> c"},
		{"a group larger than its shortest cycle",
			[]layout.Definition{def("a", "b"), def("b", "a", "c"), def("c", "b")},
			[]string{"a", "b", "c"}, [][]string{{"a", "b", "a"}},
			"module requirements form a cycle: a -> b -> a (modules on cycles: a, b, c)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := layout.RequirementOrder(tc.defs)
			var ce *layout.CycleError
			if !errors.As(err, &ce) || got != nil {
				t.Fatalf("RequirementOrder = %v, %v; want a *CycleError", namesOf(got), err)
			}
			if !reflect.DeepEqual(ce.Modules, tc.modules) || !reflect.DeepEqual(ce.Cycles, tc.cycles) || ce.Error() != tc.text {
				t.Fatalf("CycleError %+v %q, want modules %v cycles %v %q", *ce, ce.Error(), tc.modules, tc.cycles, tc.text)
			}
		})
	}
}

// A module that requires (directly, through others, or optionally) a
// module left as it is is held with it; the others are not.
func TestHeldByRequirements(t *testing.T) {
	defs := []layout.Definition{def("c", "b"), def("b", "gone"), def("d", "x?"), def("e", "a"), def("a"), def("f")}
	got := layout.HeldByRequirements(defs, func(m string) bool { return m == "gone" || m == "x" })
	want := map[string]string{"b": "gone", "c": "gone", "d": "x"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("held %v, want %v", got, want)
	}
	if got := layout.HeldByRequirements(defs, func(string) bool { return false }); len(got) != 0 {
		t.Fatalf("held %v with nothing left as it is", got)
	}
}
