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
	Receive(ctx actor.Context, children map[string]*actor.PID)
}

// root spawns its children in order and stops them in reverse order.
type root struct {
	log      *slog.Logger
	specs    []Child
	brain    Brain
	children []*actor.PID
	byName   map[string]*actor.PID
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
		r.brain.Receive(ctx, r.byName)
	}
}

func (r *root) handleStarted(ctx actor.Context) {
	r.children = r.children[:0]
	r.byName = map[string]*actor.PID{}
	for _, c := range r.specs {
		pid, err := ctx.SpawnNamed(c.Props, c.Name)
		if err != nil {
			r.log.Error("spawn child", "child", c.Name, "err", err)
			continue
		}
		r.children = append(r.children, pid)
		r.byName[c.Name] = pid
	}
	r.log.Debug("operator started", "children", len(r.children))
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
	if len(r.children) == 0 {
		if r.replyTo != nil {
			ctx.Send(r.replyTo, messages.ShutdownDone{})
		}
		return
	}
	last := r.children[len(r.children)-1]
	r.log.Debug("stopping child", "child", last.Id)
	ctx.Stop(last)
}

func (r *root) handleTerminated(ctx actor.Context, msg *actor.Terminated) {
	r.children = removePID(r.children, msg.Who)
	if r.stopping {
		r.stopLast(ctx)
		return
	}
	r.log.Error("child stopped unexpectedly", "child", msg.Who.Id)
}

func removePID(pids []*actor.PID, who *actor.PID) []*actor.PID {
	out := pids[:0]
	for _, p := range pids {
		if !p.Equal(who) {
			out = append(out, p)
		}
	}
	return out
}
