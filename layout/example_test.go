package layout_test

import (
	"fmt"

	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/values"
)

// Modules come in weight order; "ingress" (the lowest weight) requires "cni"
// (a higher one), so it moves after cni, and "monitoring" after ingress;
// "dns", which requires nothing, is not held back.
func ExampleRequirementOrder() {
	module := func(name string, requires ...string) layout.Definition {
		d := layout.Definition{Names: values.Names{Name: name}}
		for _, r := range requires {
			d.Requirements.Modules = append(d.Requirements.Modules, layout.ModuleRequirement{Module: r, Constraint: ">= 0.0.0"})
		}
		return d
	}
	defs := []layout.Definition{module("ingress", "cni"), module("dns"), module("cni"), module("monitoring", "ingress")}
	ordered, err := layout.RequirementOrder(defs)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, d := range ordered {
		fmt.Println(d.Names.Name)
	}

	_, err = layout.RequirementOrder([]layout.Definition{module("a", "b"), module("b", "a")})
	fmt.Println(err)
	// Output:
	// dns
	// cni
	// ingress
	// monitoring
	// module requirements form a cycle: a -> b -> a
}

// Discovery checks a module's requirements against the modules enabled so
// far, with their Chart.yaml versions.
func ExampleRequirements_Unmet() {
	r := layout.Requirements{
		Kubernetes: ">= 1.30",
		Modules: []layout.ModuleRequirement{
			{Module: "cni", Constraint: ">= 1.4"},
			{Module: "dns", Constraint: ">= 0.0.0"},
			{Module: "tracing", Constraint: ">= 2.0", Optional: true},
		},
	}
	enabled := map[string]string{"cni": "1.3.9"}
	known := func(name string) bool { return name != "tracing" }
	for _, why := range r.Unmet(enabled, known, "v1.31.2+k3s1") {
		fmt.Println(why)
	}
	// Output:
	// dependency 'cni' not meet the version constraint: the '1.3.9' version does not satisfy the '>= 1.4' constraint
	// dependency 'dns' is disabled
}
