package operator

import (
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/supervision"
	"github.com/addon-actors/addon-operator/supervision/inspect"
)

// RootName is the root actor's name, the first element of every path.
const RootName = "operator"

// Options configures NewSystem.
type Options struct {
	Log       *slog.Logger
	Clock     supervision.Clock
	Guardian  supervision.GuardianOptions
	Inspector *inspect.Registry // nil: a new one on Clock
}

// System is an actor system with the process's logger, the inspector and the
// panic guardian, which knows how to stop everything it started.
type System struct {
	Actors    *actor.ActorSystem
	Inspector *inspect.Registry
	Guardian  *supervision.Guardian
	log       *slog.Logger
	root      *actor.PID
	shutdown  sync.Once
}

// NewSystem creates the actor system. Protoactor's own log lines go to
// opts.Log, not to its colourised default logger.
func NewSystem(opts Options) *System {
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	if opts.Clock == nil {
		opts.Clock = supervision.RealClock{}
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
		Guardian:  supervision.NewGuardian(opts.Log, opts.Clock, opts.Guardian),
		log:       opts.Log,
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

// ErrStarted is returned by Start on a system whose root already runs.
var ErrStarted = errors.New("operator already started")

// Start spawns the root actor, which spawns children in order; it runs no
// lifecycle (StartWith does).
func (s *System) Start(children []Child) (*actor.PID, error) {
	return s.start(children, nil)
}

// StartWith is Start with the operator's lifecycle: every incarnation of
// the root (a restart after a panic) starts it from scratch.
func (s *System) StartWith(children []Child, opts LifecycleOptions) (*actor.PID, error) {
	return s.start(children, &opts)
}

func (s *System) start(children []Child, opts *LifecycleOptions) (*actor.PID, error) {
	if s.root != nil {
		return nil, ErrStarted
	}
	props := s.TopProps("operator", func() actor.Actor {
		var life *lifecycle
		if opts != nil {
			life = newLifecycle(*opts)
		}
		return newRoot(s.log, children, life)
	})
	pid, err := s.Actors.Root.SpawnNamed(props, RootName)
	if err != nil {
		return nil, fmt.Errorf("spawn operator root: %w", err)
	}
	s.root = pid
	return pid, nil
}

// Stop stops the children in reverse order, then the root, then the system,
// waiting up to timeout for the children. It is safe to call without Start
// and more than once.
func (s *System) Stop(timeout time.Duration) error {
	defer s.shutdown.Do(s.Actors.Shutdown)
	if s.root == nil {
		return nil
	}
	root := s.root
	s.root = nil
	if _, err := s.Actors.Root.RequestFuture(root, messages.Shutdown{}, timeout).Result(); err != nil {
		s.log.Error("ordered shutdown did not finish; stopping the tree at once", "err", err)
	}
	if err := s.Actors.Root.StopFuture(root).Wait(); err != nil {
		return fmt.Errorf("stop operator root: %w", err)
	}
	return nil
}
