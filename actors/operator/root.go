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

// Brain is the operator's behaviour beyond spawning and stopping children:
// the lifecycle. The root hands it every message it does not handle itself,
// after its children are spawned.
type Brain interface {
	Receive(ctx actor.Context, children *Family)
}

// root spawns its children in order and stops them in reverse order.
type root struct {
	log    *slog.Logger
	specs  []Child
	brain  Brain
	family *Family
	// stopping is set during Shutdown: the index of the child being stopped
	// and whom to tell when the last one is gone.
	stopping bool
	replyTo  *actor.PID
}

func newRoot(log *slog.Logger, children []Child, brain Brain) *root {
	return &root{log: log, specs: children, brain: brain}
}

// Receive implements actor.Actor.
func (r *root) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		r.handleStarted(ctx)
	case messages.Shutdown:
		r.handleShutdown(ctx)
	case *actor.Terminated:
		r.handleTerminated(ctx, msg)
	}
	if r.brain != nil && !r.stopping {
		r.brain.Receive(ctx, r.family)
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

func (r *root) handleTerminated(ctx actor.Context, msg *actor.Terminated) {
	expected := r.family.ended(msg.Who)
	if r.stopping {
		r.stopLast(ctx)
		return
	}
	if !expected {
		r.log.Error("child stopped unexpectedly", "child", msg.Who.Id)
	}
}
