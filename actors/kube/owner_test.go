package kube_test

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/messages"
)

// enqueueEvent does what an owner does with a HookEvent: it queues its run.
func enqueueEvent(ctx actor.Context, queue *actor.PID, ev messages.HookEvent) {
	ctx.Send(queue, messages.Enqueue{Tasks: []messages.Task{hookrun.TaskOf(ev)}})
}
