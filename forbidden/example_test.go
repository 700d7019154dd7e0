package forbidden_test

import (
	"errors"
	"fmt"

	"github.com/addon-actors/addon-operator/forbidden"
)

// helm wraps the apiserver's refusal in text; Explain puts what to add
// first.
func ExampleExplain() {
	err := errors.New(`UPGRADE FAILED: deployments.apps "web" is forbidden: User "system:serviceaccount:ops:ao" cannot patch resource "deployments" in API group "apps" in the namespace "shop"`)
	d, _ := forbidden.Find(err)
	fmt.Println(d.Verb, d.GroupResource(), d.Namespace)
	fmt.Println(d.Rule())
	// Output:
	// patch apps/deployments shop
	// {apiGroups: ["apps"], resources: ["deployments"], verbs: ["patch"]}
}
