package owners

import (
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/test/actortest"
)

// All resolves every owner name to pid, so that one probe plays all the
// owners (global, module/NAME) an event source sends its HookEvents to.
func All(pid *actor.PID) func(string) *actor.PID {
	return func(string) *actor.PID { return pid }
}

// ExpectTask waits for the next HookEvent an owner probe gets and returns
// what the owner queues for it (hookrun.TaskOf), so that a test of an event
// source checks the task its event becomes.
func ExpectTask(p *actortest.Probe, timeout time.Duration) messages.Enqueue {
	ev := actortest.Expect[messages.HookEvent](p, timeout)
	return messages.Enqueue{Tasks: []messages.Task{hookrun.TaskOf(ev)}}
}
