package module

import (
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

// scheduleCheck arms the next release check.
func (a *Actor) scheduleCheck(ctx actor.Context) {
	if a.opts.CheckInterval <= 0 || a.opts.Clock == nil || a.checkArmed {
		return
	}
	a.checkArmed = true
	a.checkTimer = supervision.Deliver(a.opts.Clock, ctx.ActorSystem().Root, ctx.Self(), checkRelease{}, a.opts.CheckInterval)
}

// stopCheck disarms the check when the actor stops.
func (a *Actor) stopCheck() {
	if a.checkTimer != nil {
		a.checkTimer.Stop()
	}
}

// handleCheckRelease lets the core decide whether to look now.
func (a *Actor) handleCheckRelease(ctx actor.Context) {
	a.checkArmed = false
	a.step(ctx, CheckDue{})
}

// handleCheckResult counts the check and lets the core take what it found.
func (a *Actor) handleCheckResult(ctx actor.Context, r worker.CheckResult) {
	a.count(func(m Metrics) { m.ReleaseChecked(a.name()) })
	a.step(ctx, ObjectsChecked{Check: r.Check, Err: r.Err})
}

// handleHelmDrift follows a module run's helm step: a run that wrote the
// release put back every field (helm's three-way merge), one that skipped
// it checked the drift.
func (a *Actor) handleHelmDrift(ctx actor.Context, r worker.HelmResult) {
	switch {
	case r.Err != nil:
	case r.Outcome.Upgraded:
		if cleared := a.drift.reset(); len(cleared) > 0 {
			a.log.Info("drift cleared: helm wrote the release", "objects", cleared)
			a.publishDrift()
		}
	case r.Outcome.Action == "skipped":
		a.observeDrift(ctx, r.Outcome.Drift)
	}
}

// forgetDrift drops what the checks found: the module is disabled, its
// release is deleted (the core clears the drift it shows).
func (a *Actor) forgetDrift() {
	a.drift.reset()
	a.count(func(m Metrics) { m.DriftedObjects(a.name(), 0) })
}

// observeDrift lets the tracker judge a check's drift and carries out what
// it decides: WARN and count what is new, ERROR for fields given up,
// restore the rest in restore mode.
func (a *Actor) observeDrift(ctx actor.Context, found []messages.DriftedObject) {
	mode := a.driftMode()
	if mode == DriftOff {
		found = nil
	}
	step := a.drift.observe(a.now(), found, mode)
	for _, d := range step.Report {
		a.log.Warn("release object drifted from its manifest", "object", d.Object, "fields", fieldLines(d),
			"mode", mode)
		a.count(func(m Metrics) { m.DriftDetected(a.name(), d.Kind) })
	}
	for _, g := range step.GiveUp {
		a.log.Error("drift restore given up: another writer sets the field back after each restore",
			"object", g.Object, "field", g.Path, "restores", driftMaxRestores,
			"hint", "if another controller owns this field, list it in the object's annotation "+drift.IgnoreAnnotation+" in the chart")
		a.count(func(m Metrics) { m.DriftRestore(a.name(), g.Kind, "given_up") })
	}
	for _, name := range step.Cleared {
		a.log.Info("release object no longer drifts", "object", name)
	}
	if len(step.Restore) > 0 {
		ctx.Request(a.worker, worker.RestoreJob{Module: a.name(), Drift: step.Restore})
	}
	a.publishDrift()
}

func (a *Actor) handleRestoreResult(r worker.RestoreResult) {
	restored := map[string]bool{}
	for _, name := range r.Restored {
		restored[name] = true
	}
	for _, d := range r.Drift {
		outcome := "failed"
		if restored[d.Object] {
			outcome = "restored"
			a.log.Warn("drift restored to the manifest", "object", d.Object, "fields", fieldLines(d))
		}
		a.count(func(m Metrics) { m.DriftRestore(a.name(), d.Kind, outcome) })
	}
	if r.Err != nil {
		a.log.Warn("drift restore", "err", r.Err)
	}
}

// driftMode is the module's drift mode: its module.yaml's, else the
// operator's.
func (a *Actor) driftMode() string {
	if m := a.opts.Definition.Release.Drift; m != "" {
		return m
	}
	if a.opts.Drift == "" {
		return DriftReport
	}
	return a.opts.Drift
}

func (a *Actor) publishDrift() {
	a.core.State.Drift = a.drift.state()
	a.publish()
	if a.opts.Metrics != nil {
		a.opts.Metrics.DriftedObjects(a.name(), len(a.core.State.Drift))
	}
}

func (a *Actor) count(f func(Metrics)) {
	if a.opts.Metrics != nil {
		f(a.opts.Metrics)
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
