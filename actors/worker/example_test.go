package worker_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/hookexec"
	"github.com/addon-actors/addon-operator/test/actortest"
)

// A worker runs a real hook for its owner and answers with the hook's
// result: here a values patch made from the binding context it was given.
func Example() {
	t := &actortest.Standalone{}
	defer t.Close()
	kit := actortest.New(t)
	tmp, err := os.MkdirTemp("", "worker-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(tmp)
	runner := hookexec.NewRunner(hookexec.Options{TmpDir: tmp})
	defer runner.Close()
	pid := kit.Spawn("worker", worker.New(context.Background(), runner, nil, nil))

	root, _ := filepath.Abs("testdata")
	owner := kit.NewProbe()
	owner.Send(pid, worker.HookJob{Module: "demo", Queue: "main", Binding: "schedule", Request: hookexec.Request{
		Hook:           hookexec.Hook{Name: "set-replicas.sh", Path: filepath.Join(root, "set-replicas.sh"), Root: root},
		BindingContext: []byte(`[{"binding":"a"},{"binding":"b"}]`),
		Scope:          hookexec.PatchScope{RootKey: "demo"},
	}})

	res := actortest.Expect[worker.HookResult](owner, 10*time.Second)
	patch, _ := json.Marshal(res.Result.ValuesPatch)
	fmt.Println(res.Hook, res.Queue, res.Err, string(patch))
	// Output:
	// set-replicas.sh main <nil> [{"op":"add","path":"/demo/replicas","value":2}]
}
