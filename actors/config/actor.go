package config

import (
	"context"
	"log/slog"
	"sync"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/supervision"
	"github.com/addon-actors/addon-operator/values"
	"github.com/addon-actors/addon-operator/values/configmap"
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
	// Name is the ConfigMap as namespace/name, for logs and the board.
	Name string
	// Board, when set, gets the ConfigMap's state (missing or not).
	Board *board.Board
	// Missing is set to 1 while the ConfigMap is deleted and the last good
	// configuration is kept, 0 otherwise (config_map_missing).
	Missing Gauge
	// Clock stamps when the ConfigMap went missing (the real clock if nil).
	Clock supervision.Clock
	// ModuleConfigs, when set, are a second source laid over the
	// ConfigMap (moduleconfigs.go).
	ModuleConfigs *ModuleConfigOptions
}

// Gauge holds one value (a prometheus.Gauge is one).
type Gauge interface {
	Set(float64)
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
	// missing is set while the ConfigMap is deleted after it had been read:
	// good stays in force until it exists again.
	missing bool
	// existed is set once the ConfigMap has been seen.
	existed bool
	// goodData is the ConfigMap's data that good was parsed from.
	goodData map[string]string
	writer   *actor.PID
	own      ownWrites
	sections sections
	// round is the check of the change waiting to be applied (check.go);
	// rounds numbers them.
	round  *round
	rounds uint64
	stop   context.CancelFunc
	done   chan struct{}
	// objects are the ModuleConfigs' state; running their source.
	objects objects
	running sync.WaitGroup
}

// New returns the producer of a config actor.
func New(opts Options) actor.Producer {
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	if opts.Clock == nil {
		opts.Clock = supervision.RealClock{}
	}
	return func() actor.Actor { return &Actor{opts: opts} }
}

// snapshotArrived carries a watch report into the actor's mailbox.
type snapshotArrived struct{ Snapshot Snapshot }

// watchEnded tells the actor that the watch stopped with an error.
type watchEnded struct{ Err error }

// Receive implements actor.Actor.
func (a *Actor) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) { // the second source (moduleconfigs.go) and its Secrets
	case objectsReport:
		a.handleObjectsReport(ctx, msg)
		return
	case secretReport:
		a.handleSecretReport(ctx, msg)
		return
	case statusFlush:
		a.objects.flush = nil
		a.flushStatuses(ctx)
		return
	}
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		a.handleStarted(ctx)
	case snapshotArrived:
		a.handleSnapshotArrived(ctx, msg.Snapshot)
	case watchEnded:
		a.handleWatchEnded(ctx, msg)
	case messages.ConfigPatch:
		a.handleConfigPatch(ctx, msg)
	case patchWritten:
		a.handlePatchWritten(ctx, msg)
	case messages.SectionReaders:
		a.handleSectionReaders(ctx, msg)
	case messages.ConfigApplied:
		a.handleConfigApplied(msg)
	case messages.ConfigChecked:
		a.handleConfigChecked(ctx, msg)
	case *actor.Stopping, *actor.Restarting:
		a.stopFlush()
		a.stopWatch()
	}
}
