package supervision_test

import (
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/supervision"
)

type ping struct{}

// An actor spawned with TopProps has an inspected mailbox and the panic
// guardian; the inspector sees it by its kind.
func ExampleNewSystem() {
	sys := supervision.NewSystem(supervision.SystemOptions{})
	defer sys.Shutdown()
	pid := sys.Actors.Root.Spawn(sys.TopProps("echo", func() actor.Actor {
		return actor.ReceiveFunc(func(ctx actor.Context) {
			if _, ok := ctx.Message().(ping); ok {
				ctx.Respond("pong")
			}
		})
	}))
	reply, err := sys.Actors.Root.RequestFuture(pid, ping{}, time.Second).Result()
	fmt.Println(reply, err)
	for _, a := range sys.Inspector.Snapshot() {
		fmt.Println(a.Kind)
	}
	if err := sys.Actors.Root.StopFuture(pid).Wait(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// pong <nil>
	// echo
}
