package rbacgen_test

import (
	"fmt"

	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/rbacgen"
)

// A module's Deployment in the operator's namespace and a hook watching
// Nodes: helm's verbs in a Role, the watch in the ClusterRole.
func ExampleCompute() {
	in := rbacgen.Input{Namespace: "ops",
		Objects: []rbacgen.Object{{Module: "web", APIVersion: "apps/v1", Kind: "Deployment", Name: "web"}},
		Watches: []rbacgen.Watch{{Owner: "web", Hook: "hooks/nodes.sh", APIVersion: "v1", Kind: "Node"}}}
	set, err := rbacgen.Compute(in, rbacgen.BuiltIn())
	if err != nil {
		panic(err)
	}
	rules := set.Merge()
	fmt.Println(rules.Allows(rbacgen.Grant{Namespace: "ops", Group: "apps", Resource: "deployments", Verb: "patch"}))
	fmt.Println(rules.Allows(rbacgen.Grant{Namespace: "other", Group: "apps", Resource: "deployments", Verb: "patch"}))
	fmt.Println(rules.Allows(rbacgen.Grant{Resource: "nodes", Verb: "watch"}))
	// Output:
	// true
	// false
	// true
}
