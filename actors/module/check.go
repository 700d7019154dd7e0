package module

import (
	"strings"
	"time"

	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/messages"
)

// The periodic release check (LIFECYCLE-STEPS step 15, and drift), as the
// core decides it; releasecheck.go and drifttrack.go carry it out.

// checkDue: the check's timer fired. An enabled module with a release
// asks its worker; a busy one (a run checks for itself) or one already
// looking tries again at the next interval; a disabled one or one in
// maintenance is armed again after its next successful run.
func (c *Core) checkDue() []Effect {
	if !c.State.Enabled || !c.HasChart || c.InMaintenance() {
		return nil
	}
	if c.Busy() || c.checking {
		return []Effect{ArmCheck{}}
	}
	c.checking = true
	return []Effect{CheckObjects{}}
}

// objectsChecked takes what the check found: absent objects queue a run
// that restores them, drift goes to the drift tracker; nothing is done for
// a module disabled or put in maintenance meanwhile. The next check is
// armed in every case.
func (c *Core) objectsChecked(e ObjectsChecked, env Env) []Effect {
	c.checking = false
	var out []Effect
	switch {
	case e.Err != nil:
		out = append(out, CheckFailed{Err: e.Err})
	case c.State.Enabled && !c.InMaintenance():
		if absent := e.Check.Absent; len(absent) > 0 {
			out = append(out, AbsentFound{Objects: absent}, Enqueue{Tasks: []messages.Task{
				messages.NewModuleRun(c.Names.Name, "absent: "+strings.Join(absent, ", "))}})
		}
		out = append(out, c.observeDrift(e.Check.Drift, env.Now)...)
	}
	return append(out, ArmCheck{})
}

// observeDrift lets the tracker judge the drift a check or a helm step
// that skipped the upgrade found: what is new is reported, fields given
// up on are told, the rest restored in restore mode; the module's state
// shows what drifts.
func (c *Core) observeDrift(found []messages.DriftedObject, now time.Time) []Effect {
	if c.DriftMode == DriftOff {
		found = nil
	}
	step := c.drift.observe(now, found, c.DriftMode)
	out := []Effect{DriftJudged{Step: step, Mode: c.DriftMode}}
	if len(step.Restore) > 0 {
		out = append(out, RestoreDrift{Drift: step.Restore})
	}
	return append(out, c.showDrift()...)
}

// driftRestored takes the worker's restore of drifted fields to the
// tracker: a restore done counts towards giving up, a failed one is told as
// failed with its error, and counts for nothing.
func (c *Core) driftRestored(r worker.RestoreResult) []Effect {
	return []Effect{DriftJudged{Step: c.drift.restoreDone(r.Drift, r.Restored, r.Err), Mode: c.DriftMode}}
}

// helmDrift follows a module run's helm step: a run that wrote the
// release put back every field (helm's three-way merge), one that skipped
// it checked the drift.
func (c *Core) helmDrift(r worker.HelmResult, now time.Time) []Effect {
	switch {
	case r.Err != nil:
	case r.Outcome.Upgraded:
		if cleared := c.drift.reset(); len(cleared) > 0 {
			return append([]Effect{DriftCleared{Objects: cleared}}, c.showDrift()...)
		}
	case r.Outcome.Action == "skipped" && !c.InMaintenance(): // maintenance: not looked at
		return c.observeDrift(r.Outcome.Drift, now)
	}
	return nil
}

// showDrift puts what drifts in the module's state.
func (c *Core) showDrift() []Effect {
	c.State.Drift = c.drift.state()
	return []Effect{Publish{}, DriftCounted{Objects: len(c.State.Drift)}}
}
