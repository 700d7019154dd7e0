package queue_test

import (
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/actors/queue"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/supervision"
	"github.com/addon-actors/addon-operator/test/actortest"
)

// Two runs of a global hook in the main queue: the owner (a probe here)
// gets one task at a time; a failed task stays at the head and runs again
// after the policy's delay (a fake clock's), before the next one.
func Example() {
	t := &actortest.Standalone{}
	defer t.Close()
	kit := actortest.New(t)
	owner := kit.NewProbe()
	pid := kit.Spawn("queue", queue.New(queue.Options{Clock: kit.Clock, Policy: supervision.Fixed{Wait: 5 * time.Second},
		Resolve: func(string) *actor.PID { return owner.PID }}), actortest.Sync())

	kit.Send(pid, messages.Enqueue{Tasks: []messages.Task{
		{Kind: messages.TaskGlobalHook, Owner: messages.OwnerGlobal, Hook: "first.sh", Reason: "example"},
		{Kind: messages.TaskGlobalHook, Owner: messages.OwnerGlobal, Hook: "second.sh", Reason: "example"},
	}})
	run := func() messages.Task {
		task := actortest.Expect[messages.RunTask](owner, time.Second).Task
		fmt.Println("run", task.Hook, "in", task.Queue)
		return task
	}
	task := run()
	kit.Send(pid, messages.TaskDone{ID: task.ID, Queue: task.Queue, Err: "exit status 1"})
	kit.Clock.Advance(5 * time.Second)
	task = run()
	kit.Send(pid, messages.TaskDone{ID: task.ID, Queue: task.Queue})
	task = run()
	kit.Send(pid, messages.TaskDone{ID: task.ID, Queue: task.Queue})
	// Output:
	// run first.sh in main
	// run first.sh in main
	// run second.sh in main
}
