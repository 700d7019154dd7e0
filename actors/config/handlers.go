package config

import (
	"context"
	"slices"
	"strings"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/values"
)

// handleStarted starts the watch (again, after a restart: the ConfigMap is
// the durable input, re-read from scratch) and the writer.
func (a *Actor) handleStarted(ctx actor.Context) {
	if a.opts.Report == nil {
		a.opts.Report = ctx.Parent()
	}
	a.own = newOwnWrites()
	var status StatusWriter
	if a.opts.ModuleConfigs != nil {
		status = a.opts.ModuleConfigs.Status
	}
	a.writer = ctx.Spawn(actor.PropsFromProducer(newWriter(a.opts.Writer, status, a.opts.Log)))
	watchCtx, cancel := context.WithCancel(context.Background())
	a.stop, a.done = cancel, make(chan struct{})
	root, self, done := ctx.ActorSystem().Root, ctx.Self(), a.done
	go func() {
		defer close(done)
		err := a.opts.Source.Run(watchCtx, func(s Snapshot) { root.Send(self, snapshotArrived{s}) })
		if err != nil && watchCtx.Err() == nil {
			root.Send(self, watchEnded{Err: err})
		}
	}()
	a.startObjects(ctx, watchCtx)
}

func (a *Actor) stopWatch() {
	if a.stop != nil {
		a.stop()
		<-a.done
		a.running.Wait()
		a.stop = nil
	}
}

func (a *Actor) handleWatchEnded(ctx actor.Context, msg watchEnded) {
	a.opts.Log.Error("ConfigMap watch stopped", "err", msg.Err)
	ctx.Send(a.opts.Report, messages.ConfigInvalid{Err: msg.Err.Error(), Initial: a.good == nil})
}

// handleSnapshotArrived drops the echo of an own write, already applied
// when the writer answered; every other report is parsed.
func (a *Actor) handleSnapshotArrived(ctx actor.Context, s Snapshot) {
	if a.own.isEcho(s.ResourceVersion) {
		a.opts.Log.Debug("ConfigMap report of our own write", "resourceVersion", s.ResourceVersion)
		return
	}
	a.handleSnapshot(ctx, s)
}

// handlePatchWritten answers the hook's owner first (it commits its own
// values, so that what follows changes nothing there), then applies what
// was written as the watch would report it, unless it already has.
func (a *Actor) handlePatchWritten(ctx actor.Context, msg patchWritten) {
	if msg.ReplyTo != nil {
		ctx.Send(msg.ReplyTo, msg.Done)
	}
	if a.own.answered(msg.Written) {
		a.handleSnapshot(ctx, Snapshot{Exists: true, Data: msg.Written.Data, ResourceVersion: msg.Written.ResourceVersion})
	}
}

func (a *Actor) handleSnapshot(ctx actor.Context, s Snapshot) {
	s, ok := a.layered(ctx, s)
	if !ok || a.keepWhileMissing(s) {
		return
	}
	parsed, err := a.cache.Parse(s.Data)
	if err != nil {
		a.round = nil // a newer version replaces the change being checked
		a.reject(ctx, s, err)
		return
	}
	a.warnUnknown(parsed.Unknown)
	if a.good == nil {
		a.apply(ctx, s, parsed)
		return
	}
	a.check(ctx, s, parsed)
}

// apply puts parsed in force: the operator is told what changed, and each
// module whose section changed gets it.
func (a *Actor) apply(ctx actor.Context, s Snapshot, parsed values.Sections) {
	var before values.Sections
	if a.good != nil {
		before = *a.good
	}
	initial := a.good == nil
	a.good, a.goodData = &parsed, s.rawData()
	change := values.Diff(before, parsed)
	if !initial && change.IsEmpty() {
		return
	}
	a.opts.Log.Info("configuration changed", "resourceVersion", s.ResourceVersion, "exists", s.Exists,
		"global", change.Global, "enabled", change.Enabled, "modules", change.Modules, "maintenance", change.Maintenance)
	ctx.Send(a.opts.Report, messages.ConfigChanged{Config: parsed, Change: change,
		Initial: initial, ResourceVersion: s.ResourceVersion})
	// A change of the global section or of an enabled flag reloads all
	// modules (the operator's), which runs every module with its section.
	a.handChangedSections(ctx, changedModules(change), change.Global || len(change.Enabled) > 0)
}

// reject keeps the last good configuration in force: s does not parse.
func (a *Actor) reject(ctx actor.Context, s Snapshot, err error) {
	a.opts.Log.Error("ConfigMap is invalid; keeping the last good configuration",
		"resourceVersion", s.ResourceVersion, "initial", a.good == nil, "err", err)
	a.invalid(ctx, s, err)
}

// invalid counts a rejected version of the ConfigMap and tells the
// operator.
func (a *Actor) invalid(ctx actor.Context, s Snapshot, err error) {
	if a.opts.Errors != nil {
		a.opts.Errors.Inc()
	}
	ctx.Send(a.opts.Report, messages.ConfigInvalid{Err: err.Error(), Initial: a.good == nil, ResourceVersion: s.ResourceVersion})
}

func (a *Actor) warnUnknown(keys []string) {
	joined := strings.Join(keys, ",")
	if joined != "" && joined != a.unknown {
		a.opts.Log.Warn("ConfigMap has keys that are no module's; they are kept but ignored", "keys", keys)
	}
	a.unknown = joined
}

// changedModules are the values keys whose section or maintenance mode
// changed, sorted, each once.
func changedModules(c values.Change) []string {
	keys := slices.Concat(c.Modules, c.Maintenance)
	slices.Sort(keys)
	return slices.Compact(keys)
}
