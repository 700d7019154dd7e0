package actortest

import (
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/messages"
)

// Owners resolves every owner name to pid, so that one probe plays all the
// owners (global, module/NAME) an event source sends its HookEvents to.
func Owners(pid *actor.PID) func(string) *actor.PID {
	return func(string) *actor.PID { return pid }
}

// ExpectOwnerTask waits for the next HookEvent an owner probe gets and
// returns what the owner queues for it (hookrun.TaskOf), so that a test of
// an event source checks the task its event becomes.
func ExpectOwnerTask(p *Probe, timeout time.Duration) messages.Enqueue {
	ev := Expect[messages.HookEvent](p, timeout)
	return messages.Enqueue{Tasks: []messages.Task{hookrun.TaskOf(ev)}}
}
