package objectpatch_test

import (
	"fmt"

	"github.com/addon-actors/addon-operator/hookexec/objectpatch"
)

// What a hook writes to $KUBERNETES_PATCH_PATH (docs/HOOK-RUN.md), parsed.
func ExampleParse() {
	ops, err := objectpatch.Parse([]byte(`operation: CreateOrUpdate
object:
  apiVersion: v1
  kind: ConfigMap
  metadata: {name: settings, namespace: ops}
  data: {mode: fast}
---
{"operation":"JQPatch","kind":"ConfigMap","namespace":"ops","name":"settings","jqFilter":".metadata.labels.seen = \"yes\""}
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, op := range ops {
		fmt.Println(op.Describe())
	}
	_, err = objectpatch.Parse([]byte(`{"operation":"Delete","kind":"ConfigMap"}`))
	fmt.Println(err)
	// Output:
	// item 0 (CreateOrUpdate ConfigMap ops/settings)
	// item 1 (JQPatch ConfigMap ops/settings)
	// item 0: field "name" is required for Delete
}
