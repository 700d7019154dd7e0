package operator

import (
	"errors"
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/supervision"
)

// RootName is the root actor's name, the first element of every path.
const RootName = "operator"

// Options configures NewSystem: the actor system's options.
type Options = supervision.SystemOptions

// System is the actor system (supervision.System: the process's logger, the inspector
// and the panic guardian) with the operator's root, which knows how to stop
// everything it started.
type System struct {
	*supervision.System
	root *actor.PID
}

// NewSystem creates the actor system; Start spawns the root.
func NewSystem(opts Options) *System {
	return &System{System: supervision.NewSystem(opts)}
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
		return newRoot(s.Log, children, life)
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
	defer s.Shutdown()
	if s.root == nil {
		return nil
	}
	root := s.root
	s.root = nil
	if _, err := s.Actors.Root.RequestFuture(root, messages.Shutdown{}, timeout).Result(); err != nil {
		s.Log.Error("ordered shutdown did not finish; stopping the tree at once", "err", err)
	}
	if err := s.Actors.Root.StopFuture(root).Wait(); err != nil {
		return fmt.Errorf("stop operator root: %w", err)
	}
	return nil
}
