package supervision

import (
	"log/slog"
	"sync"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/supervision/inspect"
)

// SystemOptions configures NewSystem.
type SystemOptions struct {
	Log       *slog.Logger // nil: discard
	Clock     Clock
	Guardian  GuardianOptions
	Inspector *inspect.Registry // nil: a new one on Clock
}

// System is the actor system every actor of the process runs in, without
// the tree: protoactor with the process's logger, the inspector and the
// panic guardian, and the props that give an actor an inspected mailbox and
// the guardian as its supervisor. The operator's root (actors/operator)
// builds on it; tests of low-layer packages spawn their actors on it
// without compiling the actor tree.
type System struct {
	Actors    *actor.ActorSystem
	Inspector *inspect.Registry
	Guardian  *Guardian
	Log       *slog.Logger
	shutdown  sync.Once
}

// NewSystem creates the actor system. Protoactor's own log lines go to opts.Log,
// not to its colourised default logger.
func NewSystem(opts SystemOptions) *System {
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	if opts.Clock == nil {
		opts.Clock = RealClock{}
	}
	if opts.Inspector == nil {
		opts.Inspector = inspect.NewRegistry(opts.Clock)
	}
	if opts.Guardian.History == nil {
		opts.Guardian.History = opts.Inspector
	}
	protoLog := opts.Log.With("component", "protoactor")
	sys := actor.NewActorSystemWithConfig(actor.Configure(
		actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return protoLog })))
	return &System{
		Actors:    sys,
		Inspector: opts.Inspector,
		Guardian:  NewGuardian(opts.Log, opts.Clock, opts.Guardian),
		Log:       opts.Log,
	}
}

// Props returns props for a child actor of the given kind: an inspected
// unbounded mailbox, and the guardian strategy for its own children.
func (s *System) Props(kind string, producer actor.Producer, opts ...actor.PropsOption) *actor.Props {
	base := []actor.PropsOption{
		actor.WithMailbox(s.Inspector.Mailbox(kind)),
		actor.WithSupervisor(s.Guardian),
	}
	return actor.PropsFromProducer(producer, append(base, opts...)...)
}

// TopProps is Props for an actor spawned from the root context, which the
// guardian supervises (protoactor refuses a guardian on a child's props).
func (s *System) TopProps(kind string, producer actor.Producer, opts ...actor.PropsOption) *actor.Props {
	return s.Props(kind, producer, append([]actor.PropsOption{actor.WithGuardian(s.Guardian)}, opts...)...)
}

// Shutdown shuts the actor system down; it is safe to call more than once.
// Whoever spawned actors stops them first.
func (s *System) Shutdown() {
	s.shutdown.Do(s.Actors.Shutdown)
}
