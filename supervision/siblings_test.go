package supervision_test

import (
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/supervision"
)

// An actor without a resolver in its options addresses the owners as its
// siblings (children of its parent); one with a resolver keeps it.
func TestOrSiblings(t *testing.T) {
	system := actor.NewActorSystem()
	defer system.Shutdown()
	given := actor.NewPID("elsewhere", "probe")
	got := make(chan [2]*actor.PID, 1)
	child := actor.PropsFromFunc(func(ctx actor.Context) {
		if _, ok := ctx.Message().(*actor.Started); ok {
			own := supervision.OrSiblings(nil, ctx)("queue")
			kept := supervision.OrSiblings(func(string) *actor.PID { return given }, ctx)("queue")
			got <- [2]*actor.PID{own, kept}
		}
	})
	parent, err := system.Root.SpawnNamed(actor.PropsFromFunc(func(ctx actor.Context) {
		if _, ok := ctx.Message().(*actor.Started); ok {
			ctx.SpawnPrefix(child, "kube")
		}
	}), "operator")
	if err != nil {
		t.Fatal(err)
	}
	select {
	case pids := <-got:
		if want := parent.Id + "/queue"; pids[0].Id != want || pids[0].Address != parent.Address {
			t.Errorf("without a resolver: %v, want %s", pids[0], want)
		}
		if pids[1] != given {
			t.Errorf("with a resolver: %v, want %v", pids[1], given)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the child did not start")
	}
}
