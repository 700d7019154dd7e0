package actortest

import (
	"log/slog"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/supervision"
	"github.com/addon-actors/addon-operator/supervision/inspect"
)

// TB is the part of testing.TB the kit uses.
type TB interface {
	Helper()
	Fatalf(format string, args ...any)
	Cleanup(func())
}

// Epoch is where every kit's fake clock starts.
var Epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// Kit is one test's actor system.
type Kit struct {
	t         TB
	System    *supervision.System
	Root      *actor.RootContext
	Clock     *supervision.FakeClock
	Inspector *inspect.Registry
	spawned   []*actor.PID
	stop      func() error
}

// Option changes how New builds the kit's actor system.
type Option func(*supervision.SystemOptions)

// WithLogger sends the actor system's and guardian's logs to log instead of
// discarding them.
func WithLogger(log *slog.Logger) Option {
	return func(o *supervision.SystemOptions) { o.Log = log }
}

// New returns a kit whose actors are all stopped when the test ends.
func New(t TB, opts ...Option) *Kit {
	t.Helper()
	o, clock := Options(opts...)
	sys := supervision.NewSystem(o)
	return On(t, sys, clock, func() error { sys.Shutdown(); return nil })
}

// Options are the options New builds the actor system with: a fake clock
// at Epoch and a discard logger, changed by opts. A kit on a system that
// embeds supervision.System (the operator's, in its tests) starts from
// them too.
func Options(opts ...Option) (supervision.SystemOptions, *supervision.FakeClock) {
	clock := supervision.NewFakeClock(Epoch)
	o := supervision.SystemOptions{Log: slog.New(slog.DiscardHandler), Clock: clock}
	for _, opt := range opts {
		opt(&o)
	}
	return o, clock
}

// On returns a kit on sys, whose clock is clock: when the test ends, it
// stops every actor it spawned, then calls stop, which stops the system.
func On(t TB, sys *supervision.System, clock *supervision.FakeClock, stop func() error) *Kit {
	t.Helper()
	k := &Kit{t: t, System: sys, Root: sys.Actors.Root, Clock: clock, Inspector: sys.Inspector, stop: stop}
	t.Cleanup(k.stopAll)
	return k
}

// Sync makes an actor handle each message in the sender's goroutine, before
// Send returns: handy for a single actor under test, wrong for actors that
// talk to each other (they would run inside one another).
func Sync() actor.PropsOption {
	return actor.WithDispatcher(actor.NewSynchronizedDispatcher(300))
}

// Spawn starts a top-level actor of the given kind with an inspected
// mailbox and the panic guardian.
func (k *Kit) Spawn(kind string, producer actor.Producer, opts ...actor.PropsOption) *actor.PID {
	k.t.Helper()
	return k.SpawnProps(k.System.TopProps(kind, producer, opts...))
}

// SpawnProps starts a top-level actor from props.
func (k *Kit) SpawnProps(props *actor.Props) *actor.PID {
	k.t.Helper()
	pid := k.Root.Spawn(props)
	k.spawned = append(k.spawned, pid)
	return pid
}

// Send injects msg into pid with no sender.
func (k *Kit) Send(pid *actor.PID, msg any) {
	k.Root.Send(pid, msg)
}

func (k *Kit) stopAll() {
	for i := len(k.spawned) - 1; i >= 0; i-- {
		if err := k.Root.StopFuture(k.spawned[i]).Wait(); err != nil {
			k.t.Fatalf("stop actor %s: %v", k.spawned[i].Id, err)
		}
	}
	if err := k.stop(); err != nil {
		k.t.Fatalf("stop actor system: %v", err)
	}
}
