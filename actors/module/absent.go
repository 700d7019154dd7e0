package module

import (
	"strings"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/supervision"
)

// checkAbsent is delivered by the clock: time to look for objects of the
// release that someone deleted (auto-healing, LIFECYCLE-STEPS step 15).
type checkAbsent struct{}

// scheduleCheck arms the next absent-resources check.
func (a *Actor) scheduleCheck(ctx actor.Context) {
	if a.opts.CheckInterval <= 0 || a.opts.Clock == nil || a.checkArmed {
		return
	}
	a.checkArmed = true
	a.checkTimer = supervision.Deliver(a.opts.Clock, ctx.ActorSystem().Root, ctx.Self(), checkAbsent{}, a.opts.CheckInterval)
}

// stopCheck disarms the check when the actor stops.
func (a *Actor) stopCheck() {
	if a.checkTimer != nil {
		a.checkTimer.Stop()
	}
}

// handleCheckAbsent asks the worker, unless the module is busy (a run
// checks for itself) or has no release.
func (a *Actor) handleCheckAbsent(ctx actor.Context) {
	a.checkArmed = false
	if !a.core.State.Enabled || !a.opts.Definition.HasChart || a.core.InMaintenance() {
		return // armed again after the next successful run
	}
	if a.core.Busy() || a.checking {
		a.scheduleCheck(ctx)
		return
	}
	a.checking = true
	ctx.Request(a.worker, worker.AbsentJob{Module: a.opts.Definition.Names.Name})
}

func (a *Actor) handleAbsentResult(ctx actor.Context, r worker.AbsentResult) {
	a.checking = false
	defer a.scheduleCheck(ctx)
	if r.Err != nil {
		a.log.Warn("absent resources check", "err", r.Err)
		return
	}
	if len(r.Objects) == 0 || !a.core.State.Enabled || a.core.InMaintenance() {
		return
	}
	a.log.Info("release objects are absent; queueing a module run", "objects", r.Objects)
	ctx.Send(a.peers.Queue, messages.Enqueue{Tasks: []messages.Task{
		messages.NewModuleRun(a.opts.Definition.Names.Name, "absent: "+strings.Join(r.Objects, ", "))}})
}
