package config

import (
	"context"
	"log/slog"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/actors/values"
	"github.com/addon-actors/addon-operator/actors/values/configmap"
	"github.com/addon-actors/addon-operator/messages"
)

// Source reports the ConfigMap until ctx is done (Store.Run).
type Source interface {
	Run(ctx context.Context, onChange func(Snapshot)) error
}

// Counter counts errors (a prometheus.Counter is one).
type Counter interface {
	Inc()
}

// Options configures the config actor.
type Options struct {
	Source Source
	Writer Writer
	// Report receives ConfigChanged and ConfigInvalid; nil means the parent.
	Report *actor.PID
	Log    *slog.Logger
	// Errors counts invalid configurations (config_values_errors_total).
	Errors Counter
}

// Actor owns ConfigMap/addon-operator: it parses every version the watch
// reports, tells Report what changed, keeps the last good configuration
// when a version is invalid, and writes config patches through its writer
// child, one at a time.
type Actor struct {
	opts    Options
	cache   configmap.Cache
	good    *values.Sections
	unknown string
	writer  *actor.PID
	stop    context.CancelFunc
	done    chan struct{}
}

// New returns the producer of a config actor.
func New(opts Options) actor.Producer {
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	return func() actor.Actor { return &Actor{opts: opts} }
}

// snapshotArrived carries a watch report into the actor's mailbox.
type snapshotArrived struct{ Snapshot Snapshot }

// watchEnded tells the actor that the watch stopped with an error.
type watchEnded struct{ Err error }

// Receive implements actor.Actor.
func (a *Actor) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		a.handleStarted(ctx)
	case snapshotArrived:
		a.handleSnapshot(ctx, msg.Snapshot)
	case watchEnded:
		a.handleWatchEnded(ctx, msg)
	case messages.ConfigPatch:
		ctx.Forward(a.writer)
	case *actor.Stopping, *actor.Restarting:
		a.stopWatch()
	}
}
