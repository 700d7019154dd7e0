package queue

import (
	"log/slog"
	"strings"

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

// Actor is the queue actor.
type Actor struct {
	opts    Options
	queues  *Queues
	retrier supervision.Retrier
	// owners maps a running owner's PID id to the queues it runs tasks of.
	owners map[string][]string
	sub    *eventSub
	// busy is set while some queue holds a task; its fall is logged.
	busy bool
	// hold keeps event runs back while discovery fails.
	hold hold
}

// New returns the producer of a queue actor.
func New(opts Options) actor.Producer {
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	return func() actor.Actor {
		queues := NewQueues(opts.Queues...)
		queues.SetContextBound(opts.ContextBound)
		return &Actor{opts: opts, queues: queues, owners: map[string][]string{}}
	}
}

// retryDue is delivered by the clock when a failed head may run again.
type retryDue struct {
	Queue string
	ID    uint64
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
		a.append(ctx, msg.Tasks)
	case messages.HoldEvents:
		a.handleHold(ctx, msg)
	case messages.TaskDone:
		a.handleTaskDone(ctx, msg)
	case messages.TaskProgress:
		a.handleTaskProgress(msg)
	case retryDue:
		a.handleRetryDue(ctx, msg)
	case ownerRestarted:
		a.handleOwnerLost(ctx, msg.Owner, "owner restarted after a panic", true)
	case *actor.Terminated:
		a.handleOwnerLost(ctx, msg.Who.Id, "owner stopped", false)
	case *actor.Stopping, *actor.Restarting:
		a.sub.close()
	}
}

func (a *Actor) handleStarted(ctx actor.Context) {
	a.retrier = supervision.Retrier{Clock: a.opts.Clock, Policy: a.opts.Policy, Sender: ctx.ActorSystem().Root}
	if a.opts.Resolve == nil {
		a.opts.Resolve = siblings(ctx)
	}
	a.sub = subscribeRestarts(ctx)
	a.publish()
}

func (a *Actor) handleTaskDone(ctx actor.Context, msg messages.TaskDone) {
	running, ok := a.queues.Running(msg.Queue)
	if !ok || running.ID != msg.ID {
		a.opts.Log.Warn("TaskDone for a task that is not running", "queue", msg.Queue, "id", msg.ID)
		return
	}
	a.release(ctx, running)
	if msg.Err != "" {
		a.fail(ctx, running, msg.Err)
		a.publish()
		a.reportGroup(ctx, running, messages.GroupRunFailed, msg.Err)
		return
	}
	a.queues.Finish(msg.Queue, msg.ID)
	now := a.opts.Clock.Now()
	touched := append(a.queues.InsertNext(msg.Next, now), msg.Queue)
	later, rerun := keepInGroup(running, msg.Later)
	for _, t := range later {
		touched = appendOnce(touched, a.queues.Append(t, now))
	}
	a.logReplaced()
	a.logMerged()
	a.supersede(ctx)
	a.kick(ctx, touched...)
	a.publish()
	a.reportGroup(ctx, running, successOutcome(rerun), "")
}

// handleTaskProgress shows what a running task is doing; one that is no
// longer running is past it.
func (a *Actor) handleTaskProgress(msg messages.TaskProgress) {
	if a.queues.SetStatus(msg.Queue, msg.ID, msg.Status, msg.Since) {
		a.publish()
	}
}

// fail drops an allowFailure task, or keeps it at the head and schedules
// its retry.
func (a *Actor) fail(ctx actor.Context, t messages.Task, err string) {
	if t.AllowFailure {
		a.queues.Finish(t.Queue, t.ID)
		a.opts.Log.Warn("task failed; dropped as it allows failure", "task", describe(t), "err", err)
		a.dropped(t, err)
		a.kick(ctx, t.Queue)
		return
	}
	if a.queues.GroupSuperseded(t.Group) {
		a.queues.Finish(t.Queue, t.ID)
		a.opts.Log.Warn("task failed; dropped as the converge it belongs to was superseded", "task", describe(t), "err", err)
		a.dropped(t, err)
		a.kick(ctx, t.Queue)
		return
	}
	retry := a.retrier.Plan(t.Attempts + 1)
	a.queues.Fail(t.Queue, t.ID, err, retry.At)
	a.publish() // before the log, so that a reader of the log finds /queue updated
	a.opts.Log.Error("task failed; retrying", "task", describe(t), "attempt", retry.Attempt,
		"retryIn", retry.Delay, "err", err)
	a.retrier.Arm(retry, ctx.Self(), retryDue{Queue: t.Queue, ID: t.ID})
	if t.Group != 0 {
		a.kick(ctx, t.Queue) // the failed run stepped aside
	}
	a.supersede(ctx)
}

func (a *Actor) handleRetryDue(ctx actor.Context, msg retryDue) {
	if a.queues.RetryDue(msg.Queue, msg.ID) {
		a.kick(ctx, msg.Queue)
		a.publish()
	}
}

// handleOwnerLost fails (retry) or drops the tasks an owner was running.
func (a *Actor) handleOwnerLost(ctx actor.Context, ownerID, why string, retry bool) {
	for _, name := range a.owners[ownerID] {
		t, ok := a.queues.Running(name)
		if !ok {
			continue
		}
		a.release(ctx, t)
		if retry {
			a.fail(ctx, t, why)
			a.reportGroup(ctx, t, messages.GroupRunFailed, why)
			continue
		}
		a.queues.Finish(name, t.ID)
		a.opts.Log.Error("task dropped", "task", describe(t), "err", why)
		a.dropped(t, why)
		a.kick(ctx, name)
		a.reportGroup(ctx, t, messages.GroupRunDropped, why)
	}
	a.publish()
}

// kick starts the head of each idle queue.
func (a *Actor) kick(ctx actor.Context, names ...string) {
	for _, name := range names {
		t, ok := a.queues.Next(name)
		if !ok {
			continue
		}
		owner := a.opts.Resolve(t.Owner)
		a.owners[owner.Id] = appendOnce(a.owners[owner.Id], name)
		ctx.Watch(owner)
		ctx.Request(owner, messages.RunTask{Task: t})
	}
}

// release forgets that the task's owner runs it.
func (a *Actor) release(ctx actor.Context, t messages.Task) {
	owner := a.opts.Resolve(t.Owner)
	left := a.owners[owner.Id][:0]
	for _, q := range a.owners[owner.Id] {
		if q != t.Queue {
			left = append(left, q)
		}
	}
	if len(left) == 0 {
		delete(a.owners, owner.Id)
		ctx.Unwatch(owner)
		return
	}
	a.owners[owner.Id] = left
}

func (a *Actor) dropped(t messages.Task, err string) {
	if a.opts.Dropped != nil {
		a.opts.Dropped(t, err)
	}
}

// publish hands the snapshot out after every change, and logs "queues
// idle" when the last task of all queues is gone.
func (a *Actor) publish() {
	if a.opts.Publish != nil {
		a.opts.Publish(a.queues.Snapshot(a.opts.Clock.Now()))
	}
	busy := !a.queues.Empty()
	if a.busy && !busy {
		a.opts.Log.Info("queues idle")
	}
	a.busy = busy
}

func describe(t messages.Task) string {
	parts := []string{string(t.Kind)}
	for _, s := range []string{t.Module, t.Hook, t.Binding} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	return t.Queue + ":" + strings.Join(parts, ":")
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
