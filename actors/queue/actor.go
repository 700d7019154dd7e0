package queue

import (
	"log/slog"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/supervision"
)

// Options configures the queue actor.
type Options struct {
	Clock  supervision.Clock
	Policy supervision.Policy
	Log    *slog.Logger
	// Resolve maps a task's owner to its PID; nil resolves owners as
	// siblings of the queue (children of the operator root).
	Resolve func(owner string) *actor.PID
	// Publish receives a snapshot after every change; nil publishes nothing.
	Publish func(messages.QueueSnapshot)
	// Dropped is told about every task dropped after a failure
	// (allowFailure, or an owner that is gone).
	Dropped func(t messages.Task, err string)
	// Queues are created empty at the start, so that they show in every
	// snapshot before their first task (the parallel queues).
	Queues []string
	// ContextBound bounds the binding context bytes of a waiting run
	// absorbing its hook's events (0: DefaultContextBound; negative: none).
	ContextBound int
}

// Actor is the queue actor: a shell around the Core, which decides.
type Actor struct {
	opts Options
	core *Core
	sub  *eventSub
}

// New returns the producer of a queue actor.
func New(opts Options) actor.Producer {
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	return func() actor.Actor {
		return &Actor{opts: opts}
	}
}

// ownerRestarted is forwarded from the event stream: the owner panicked,
// so the task it was running is lost.
type ownerRestarted struct {
	Owner string
}

// Receive implements actor.Actor.
func (a *Actor) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		a.handleStarted(ctx)
	case messages.Enqueue:
		a.step(ctx, Enqueued{Tasks: msg.Tasks})
	case messages.HoldEvents:
		a.step(ctx, HoldSet{Hold: msg.Hold})
	case messages.TaskDone:
		a.step(ctx, Finished{Done: msg})
	case messages.TaskProgress:
		a.step(ctx, Progressed{Progress: msg})
	case RetryDue:
		a.step(ctx, msg)
	case ownerRestarted:
		a.step(ctx, OwnerLost{ID: msg.Owner, Why: "owner restarted after a panic", Retry: true})
	case *actor.Terminated:
		a.step(ctx, OwnerLost{ID: msg.Who.Id, Why: "owner stopped"})
	case *actor.Stopping, *actor.Restarting:
		a.sub.close()
	}
}

// handleStarted resolves the owners, makes the core and listens for the
// owners' restarts.
func (a *Actor) handleStarted(ctx actor.Context) {
	if a.opts.Resolve == nil {
		a.opts.Resolve = siblings(ctx)
	}
	a.core = NewCore(CoreOptions{Policy: a.opts.Policy, Queues: a.opts.Queues, ContextBound: a.opts.ContextBound,
		OwnerID: func(owner string) string { return a.opts.Resolve(owner).Id }})
	a.sub = subscribeRestarts(ctx)
	a.step(ctx, Started{})
}

// siblings resolves owners as children of the queue's parent, and the
// operator owner as the parent itself.
func siblings(ctx actor.Context) func(string) *actor.PID {
	sibling, parent := supervision.Siblings(ctx), ctx.Parent()
	return func(owner string) *actor.PID {
		if owner == messages.OwnerOperator && parent != nil {
			return parent
		}
		return sibling(owner)
	}
}
