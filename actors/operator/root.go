package operator

import (
	"log/slog"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/messages"
)

// Child is one child of the root, spawned under Name with Props.
type Child struct {
	Name  string
	Props *actor.Props
}

// root is the operator: it spawns its children in order, stops them in
// reverse order, and runs the lifecycle (when it has one: a root without
// is only a supervisor, as in tests of the actor tree).
type root struct {
	log    *slog.Logger
	specs  []Child
	life   *lifecycle
	family *Family
	// stopping is set during Shutdown: the index of the child being stopped
	// and whom to tell when the last one is gone.
	stopping bool
	replyTo  *actor.PID
}

func newRoot(log *slog.Logger, children []Child, life *lifecycle) *root {
	return &root{log: log, specs: children, life: life}
}

// Receive implements actor.Actor.
func (r *root) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		r.handleStarted(ctx)
	case messages.Shutdown:
		r.handleShutdown(ctx)
	case *actor.Terminated:
		if stopped, ok := r.handleTerminated(ctx, msg); ok && r.life != nil {
			r.life.children = r.family
			r.life.step(ctx, stopped) // the lifecycle's core decides
			return
		}
	}
	if r.life != nil && !r.stopping {
		r.life.receive(ctx, r.family)
	}
}

func (r *root) handleStarted(ctx actor.Context) {
	r.family = newFamily()
	for _, c := range r.specs {
		if _, err := r.family.Spawn(ctx, c, ""); err != nil {
			r.log.Error("spawn child", "child", c.Name, "err", err)
		}
	}
	r.log.Debug("operator started", "children", r.family.Len())
}

func (r *root) handleShutdown(ctx actor.Context) {
	if ctx.Sender() != nil {
		r.replyTo = ctx.Sender()
	}
	if r.stopping {
		return
	}
	r.stopping = true
	r.stopLast(ctx)
}

// stopLast stops the most recently started child that is still running, or
// replies ShutdownDone when none is left.
func (r *root) stopLast(ctx actor.Context) {
	last, ok := r.family.last()
	if !ok {
		if r.replyTo != nil {
			ctx.Send(r.replyTo, messages.ShutdownDone{})
		}
		return
	}
	r.log.Debug("stopping child", "child", last.Id)
	ctx.Stop(last)
}

// handleTerminated goes on with a shutdown, or returns a child that
// stopped unexpectedly: the lifecycle's core decides what that means
// (ChildStopped); a root without a lifecycle only logs it.
func (r *root) handleTerminated(ctx actor.Context, msg *actor.Terminated) (ChildStopped, bool) {
	name, expected := r.family.ended(msg.Who)
	if r.stopping {
		r.stopLast(ctx)
		return ChildStopped{}, false
	}
	if expected {
		return ChildStopped{}, false
	}
	if r.life == nil {
		r.log.Error("child stopped unexpectedly", "child", msg.Who.Id)
	}
	return ChildStopped{Name: name, ID: msg.Who.Id}, true
}
