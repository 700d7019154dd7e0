package kube_test

import (
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/test/actortest"
)

// owners sends every owner's HookEvents to one probe, which plays the
// owners (global, module/NAME).
func owners(pid *actor.PID) func(string) *actor.PID {
	return func(string) *actor.PID { return pid }
}

// expectRun waits for the next HookEvent the owner probe gets and returns
// what the owner queues for it (hookrun.TaskOf), so that the tests check
// the task a kube event becomes.
func expectRun(p *actortest.Probe, timeout time.Duration) messages.Enqueue {
	ev := actortest.Expect[messages.HookEvent](p, timeout)
	return messages.Enqueue{Tasks: []messages.Task{hookrun.TaskOf(ev)}}
}

// enqueueEvent does what an owner does with a HookEvent: it queues its run.
func enqueueEvent(ctx actor.Context, queue *actor.PID, ev messages.HookEvent) {
	ctx.Send(queue, messages.Enqueue{Tasks: []messages.Task{hookrun.TaskOf(ev)}})
}
