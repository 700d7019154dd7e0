package drift_test

import (
	"encoding/json"
	"fmt"

	"github.com/addon-actors/addon-operator/chartrun/drift"
)

func Example() {
	// The manifest's object as helm rendered it, and the live object as the apiserver returns
	// it: defaulted, its cpu request rewritten as a quantity, its image and replicas edited by
	// hand, replicas being the autoscaler's to set.
	var rendered, live map[string]any
	mustDecode(`{"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": {"name": "web", "annotations": {"drift.addon-operator.io/ignore": "spec.replicas"}},
		"spec": {"replicas": 2, "template": {"spec": {"containers": [
			{"name": "web", "image": "nginx:1.25", "resources": {"requests": {"cpu": 0.5}}}]}}}}`, &rendered)
	mustDecode(`{"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": {"name": "web", "uid": "6f1c", "annotations": {"drift.addon-operator.io/ignore": "spec.replicas"}},
		"spec": {"replicas": 5, "template": {"spec": {"containers": [
			{"name": "web", "image": "nginx:1.26", "imagePullPolicy": "IfNotPresent", "resources": {"requests": {"cpu": "500m"}}}]}}},
		"status": {"replicas": 5}}`, &live)

	fields := drift.Compare(rendered, live, nil)
	fmt.Println(drift.Summary(fields, nil))
	patch, err := drift.Patch(fields)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(patch))
	// Output:
	// spec.template.spec.containers[0].image: "nginx:1.25" → "nginx:1.26" (live)
	// [{"op":"test","path":"/spec/template/spec/containers/0/image","value":"nginx:1.26"},{"op":"replace","path":"/spec/template/spec/containers/0/image","value":"nginx:1.25"}]
}

func mustDecode(doc string, into *map[string]any) {
	if err := json.Unmarshal([]byte(doc), into); err != nil {
		panic(err)
	}
}
