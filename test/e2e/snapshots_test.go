package e2e_test

import (
	"encoding/json"
	"reflect"
	"testing"
)

// `hook snapshots` shows a hook's kubernetes objects as the kube actor
// published them: those there at start-up, and one created later once its
// run is done.
func TestHookSnapshotsCLI(t *testing.T) {
	ns := kube.Namespace(t)
	create := func(name string) { createConfigMap(t, ns, name, map[string]string{"snap": "yes"}) }
	create("cm-a")
	config := `{"configVersion":"v1","kubernetes":[{"name":"cms","apiVersion":"v1","kind":"ConfigMap",` +
		`"jqFilter":".metadata.name","keepFullObjectsInMemory":false,"labelSelector":{"matchLabels":{"snap":"yes"}},` +
		`"namespace":{"nameSelector":{"matchNames":["` + ns + `"]}}}]}`
	op := startSpec(t, tree(t, map[string]string{"global-hooks/watcher": hook(config, "")}), ns)
	op.waitReady(t)
	snapshotIs := func(want string) func() bool {
		return func() bool {
			var got, w any
			if err := json.Unmarshal([]byte(op.cli(t, "hook", "snapshots", "watcher", "-o", "json")), &got); err != nil {
				t.Fatalf("hook snapshots: %v", err)
			}
			_ = json.Unmarshal([]byte(want), &w)
			return reflect.DeepEqual(got, w)
		}
	}
	op.waitUntil(t, "snapshot of cm-a", snapshotIs(`{"cms":[{"object":null,"filterResult":"cm-a"}]}`))
	create("cm-b")
	op.waitUntil(t, "snapshot of cm-a and cm-b",
		snapshotIs(`{"cms":[{"object":null,"filterResult":"cm-a"},{"object":null,"filterResult":"cm-b"}]}`))
}
