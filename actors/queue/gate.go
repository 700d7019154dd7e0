package queue

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/messages"
)

// Gate is what the event sources (the schedule and kube actors) put their
// runs through on the way to the queue actor: while events are held back
// (messages.HoldEvents: module discovery is failing) the runs wait in the
// gate, and they are sent, in the order they came, when it opens. The zero
// value is open. A source keeps its Gate with the inputs that outlive its
// restarts, so that nothing held is lost.
type Gate struct {
	hold bool
	held []messages.Task
}

// Send enqueues the tasks, or holds them back.
func (g *Gate) Send(ctx actor.Context, queue *actor.PID, tasks ...messages.Task) {
	if g.hold {
		g.held = append(g.held, tasks...)
		return
	}
	ctx.Send(queue, messages.Enqueue{Tasks: tasks})
}

// Held tells whether runs are held back now.
func (g *Gate) Held() bool { return g.hold }

// Set holds runs back, or opens the gate and enqueues what was held; it
// returns how many runs it released.
func (g *Gate) Set(ctx actor.Context, queue *actor.PID, hold bool) int {
	g.hold = hold
	if hold || len(g.held) == 0 {
		return 0
	}
	n := len(g.held)
	ctx.Send(queue, messages.Enqueue{Tasks: g.held})
	g.held = nil
	return n
}
