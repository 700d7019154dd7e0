package actortest_test

import (
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/test/actortest"
)

type Hello struct{ Name string }

type Greeting struct{ Text string }

// greeter is the actor under test: it answers Hello with a Greeting.
type greeter struct{ greeted int }

func (g *greeter) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case Hello:
		g.greeted++
		ctx.Respond(Greeting{Text: fmt.Sprintf("hello, %s (#%d)", msg.Name, g.greeted)})
	}
}

// A test injects a message with a probe as its sender and asserts the reply.
// In a test function, pass t to actortest.New instead of a Standalone.
func Example() {
	t := &actortest.Standalone{}
	defer t.Close()
	kit := actortest.New(t)

	pid := kit.Spawn("greeter", func() actor.Actor { return &greeter{} })
	probe := kit.NewProbe()

	probe.Send(pid, Hello{Name: "world"})
	reply := actortest.Expect[Greeting](probe, time.Second)
	fmt.Println(reply.Text)

	probe.Send(pid, Hello{Name: "again"})
	fmt.Println(actortest.Expect[Greeting](probe, time.Second).Text)
	probe.ExpectNoMessage(10 * time.Millisecond)
	// Output:
	// hello, world (#1)
	// hello, again (#2)
}
