package manifestdiff_test

import (
	"fmt"

	"github.com/addon-actors/addon-operator/chartrun/manifestdiff"
)

func ExampleCompare() {
	deployed := "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1\n"
	rendered := "---\n# Source: web/templates/deploy.yaml\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 3\n" +
		"---\napiVersion: v1\nkind: Service\nmetadata:\n  name: web\n"
	changes, err := manifestdiff.Compare(deployed, rendered, nil)
	if err != nil {
		panic(err)
	}
	for _, c := range changes {
		fmt.Println(c.Action, c.Object)
	}
	fmt.Print(changes[0].Diff)
	// Output:
	// changed Deployment/web
	// added Service/web
	// --- Deployment/web
	// +++ Deployment/web
	// @@ -3,4 +3,4 @@
	//  metadata:
	//    name: web
	//  spec:
	// -  replicas: 1
	// +  replicas: 3
}
