package module

import (
	"fmt"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/chartrun/drift"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/supervision"
)

// checkRelease is delivered by the clock: time to look at the release's
// objects, for those someone deleted (auto-healing, LIFECYCLE-STEPS step
// 15) and those someone changed (drift).
type checkRelease struct{}

// applyCheck carries out the release check's effects.
func (a *Actor) applyCheck(ctx actor.Context, e checkEffect) {
	switch e := e.(type) {
	case ArmCheck:
		a.checkTimer = supervision.Deliver(a.opts.Clock, ctx.ActorSystem().Root, ctx.Self(), checkRelease{}, e.After)
	case CheckObjects:
		ctx.Request(a.worker, worker.CheckJob{Module: a.name(), Drift: e.Drift, Secrets: a.secrets(e.Module)})
	case RestoreDrift:
		ctx.Request(a.worker, worker.RestoreJob{Module: a.name(), Drift: e.Drift})
	case DriftJudged:
		a.driftJudged(e)
	case DriftCounted:
		a.count(func(m Metrics) { m.DriftedObjects(a.name(), e.Objects) })
	case driftShown, Log, Enqueue:
		panic(fmt.Sprintf("module: the core keeps the check's %T", e))
	default:
		panic(fmt.Sprintf("module: effect %T has no case in applyCheck", e))
	}
}

// stopTimers disarms the check and the retry of the hooks' configuration
// when the actor stops.
func (a *Actor) stopTimers() {
	if a.checkTimer != nil {
		a.checkTimer.Stop()
	}
	a.reconfigure.Cancel()
}

// handleCheckResult counts the check and lets the core take what it found.
func (a *Actor) handleCheckResult(ctx actor.Context, r worker.CheckResult) {
	a.count(func(m Metrics) { m.ReleaseChecked(a.name()) })
	a.step(ctx, CheckEvent{Event: ObjectsChecked{Check: r.Check, Err: r.Err}})
}

// driftJudged logs and counts what the drift tracker decided: WARN for
// what is new and what was restored, ERROR for fields given up and failed
// restores, INFO for what no longer drifts.
func (a *Actor) driftJudged(e DriftJudged) {
	for _, d := range e.Step.Report {
		a.log.Warn("release object drifted from its manifest", "object", d.Object, "fields", fieldLines(d),
			"mode", e.Mode)
		a.count(func(m Metrics) { m.DriftDetected(a.name(), d.Kind) })
	}
	for _, g := range e.Step.GiveUp {
		a.log.Error("drift restore given up: another writer sets the field back after each restore",
			"object", g.Object, "field", g.Path, "restores", driftMaxRestores,
			"hint", "if another controller owns this field, list it in the object's annotation "+drift.IgnoreAnnotation+" in the chart")
		a.count(func(m Metrics) { m.DriftRestore(a.name(), g.Kind, "given_up") })
	}
	for _, name := range e.Step.Cleared {
		a.log.Info("release object no longer drifts", "object", name)
	}
	for _, d := range e.Step.Restored {
		a.log.Warn("drift restored to the manifest", "object", d.Object, "fields", fieldLines(d))
		a.count(func(m Metrics) { m.DriftRestore(a.name(), d.Kind, "restored") })
	}
	for _, d := range e.Step.Failed {
		a.log.Error("drift restore failed", "object", d.Object, "fields", fieldLines(d), "err", e.Step.RestoreErr)
		a.count(func(m Metrics) { m.DriftRestore(a.name(), d.Kind, "failed") })
	}
}

// fieldLines are a drifted object's fields as "path: rendered → live".
func fieldLines(d messages.DriftedObject) []string {
	lines := make([]string, len(d.Fields))
	for i, f := range d.Fields {
		lines[i] = f.Path + ": " + f.Shown
	}
	return lines
}
