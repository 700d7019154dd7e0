package module

import (
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/values"
)

// checker is the sub-machine of the periodic release check (LIFECYCLE-STEPS
// step 15, and drift): every interval an enabled module, when idle, asks
// its worker for the release's objects that are absent (it queues its own
// run to restore them) and those that drifted from the manifest, which
// its drift tracker (drift.go) judges. It arms its timer once at a time,
// and never without a clock and an interval (every 0).
type checker struct {
	name     string
	hasChart bool
	// mode is the module's drift mode (DriftReport, DriftRestore,
	// DriftOff).
	mode  string
	every time.Duration
	// armed: the timer is on its way; checking: the worker is looking at
	// the release's objects.
	armed, checking bool
	drift           driftTracker
}

// checkEnv is what the core tells the checker of the module at each step.
type checkEnv struct {
	Now                        time.Time
	Enabled, Maintenance, Busy bool
	Values                     values.Snapshot
}

// checkEvent is an input of the checker.
type checkEvent interface{ checkEvent() }

// CheckDue: the check's timer fired.
type CheckDue struct{}

func (CheckDue) checkEvent() {}

// ObjectsChecked is the worker's release check.
type ObjectsChecked struct {
	Check worker.ReleaseCheck
	Err   error
}

func (ObjectsChecked) checkEvent() {}

// DriftRestored is the worker's restore of drifted fields
// (RestoreDrift).
type DriftRestored struct{ Result worker.RestoreResult }

func (DriftRestored) checkEvent() {}

// runSucceeded: a module run succeeded; the check is armed.
type runSucceeded struct{}

func (runSucceeded) checkEvent() {}

// helmDone is a module run's helm step.
type helmDone struct{ Result worker.HelmResult }

func (helmDone) checkEvent() {}

// driftForgotten: the module is disabled, its release deleted.
type driftForgotten struct{}

func (driftForgotten) checkEvent() {}

// checkEffect is an output of the checker.
type checkEffect interface{ checkEffect() }

// ArmCheck arms the next check, After from now.
type ArmCheck struct{ After time.Duration }

func (ArmCheck) checkEffect() {}

// CheckObjects asks the worker for the release's absent objects, and
// drifted ones with Drift (ObjectsChecked follows); Module is the
// module's values (its secrets are masked).
type CheckObjects struct {
	Drift  bool
	Module values.Snapshot
}

func (CheckObjects) checkEffect() {}

// RestoreDrift asks the worker to put drifted fields back.
type RestoreDrift struct{ Drift []messages.DriftedObject }

func (RestoreDrift) checkEffect() {}

// DriftJudged is what the drift tracker decided (reports, fields
// given up, objects no longer drifting, restores done and failed), for
// the log and the metrics.
type DriftJudged struct {
	Step driftStep
	Mode string
}

func (DriftJudged) checkEffect() {}

// DriftCounted is how many objects drift now, for the metric.
type DriftCounted struct{ Objects int }

func (DriftCounted) checkEffect() {}

// driftShown is what drifts now, for the module's state.
type driftShown struct{ State []board.DriftState }

func (driftShown) checkEffect() {}

// Step takes ev and returns what it calls for.
func (k *checker) Step(ev checkEvent, env checkEnv) []checkEffect {
	switch e := ev.(type) {
	case CheckDue:
		k.armed = false
		return k.due(env)
	case ObjectsChecked:
		return k.objectsChecked(e, env)
	case DriftRestored:
		r := e.Result
		return []checkEffect{DriftJudged{Step: k.drift.restoreDone(r.Drift, r.Restored, r.Err), Mode: k.mode}}
	case runSucceeded:
		return k.arm()
	case helmDone:
		return k.helmDone(e.Result, env)
	case driftForgotten:
		k.drift.reset()
		return []checkEffect{DriftCounted{}}
	default:
		panic(fmt.Sprintf("module: event %T has no case in checker.Step", ev))
	}
}

// arm arms the timer, unless it is on its way or there is none.
func (k *checker) arm() []checkEffect {
	if k.every <= 0 || k.armed {
		return nil
	}
	k.armed = true
	return []checkEffect{ArmCheck{After: k.every}}
}

// due: the timer fired. An enabled module with a release asks its worker;
// a busy one (a run checks for itself) or one already looking tries again
// at the next interval; a disabled one or one in maintenance is armed
// again after its next successful run.
func (k *checker) due(env checkEnv) []checkEffect {
	if !env.Enabled || !k.hasChart || env.Maintenance {
		return nil
	}
	if env.Busy || k.checking {
		return k.arm()
	}
	k.checking = true
	return []checkEffect{CheckObjects{Drift: k.mode != DriftOff, Module: env.Values}}
}

// objectsChecked takes what the check found: absent objects queue a run
// that restores them, drift goes to the drift tracker; nothing is done for
// a module disabled or put in maintenance meanwhile. The next check is
// armed in every case.
func (k *checker) objectsChecked(e ObjectsChecked, env checkEnv) []checkEffect {
	k.checking = false
	var out []checkEffect
	switch {
	case e.Err != nil:
		out = append(out, logAt(slog.LevelWarn, "release check", "err", e.Err))
	case env.Enabled && !env.Maintenance:
		if absent := e.Check.Absent; len(absent) > 0 {
			out = append(out, logAt(slog.LevelInfo, "release objects are absent; queueing a module run", "objects", absent),
				Enqueue{Tasks: []messages.Task{messages.NewModuleRun(k.name, "absent: "+strings.Join(absent, ", "))}})
		}
		out = append(out, k.observe(e.Check.Drift, env.Now)...)
	}
	return append(out, k.arm()...)
}

// observe lets the tracker judge the drift a check or a helm step that
// skipped the upgrade found: what is new is reported, fields given up on
// are told, the rest restored in restore mode; the module's state shows
// what drifts.
func (k *checker) observe(found []messages.DriftedObject, now time.Time) []checkEffect {
	if k.mode == DriftOff {
		found = nil
	}
	step := k.drift.observe(now, found, k.mode)
	out := []checkEffect{DriftJudged{Step: step, Mode: k.mode}}
	if len(step.Restore) > 0 {
		out = append(out, RestoreDrift{Drift: step.Restore})
	}
	return append(out, k.show()...)
}

// helmDone follows a module run's helm step: a run that wrote the release
// put back every field (helm's three-way merge), one that skipped it
// checked the drift.
func (k *checker) helmDone(r worker.HelmResult, env checkEnv) []checkEffect {
	switch {
	case r.Err != nil:
	case r.Outcome.Upgraded:
		if cleared := k.drift.reset(); len(cleared) > 0 {
			log := logAt(slog.LevelInfo, "drift cleared: helm wrote the release", "objects", cleared)
			return append([]checkEffect{log}, k.show()...)
		}
	case r.Outcome.Action == "skipped" && !env.Maintenance: // maintenance: not looked at
		return k.observe(r.Outcome.Drift, env.Now)
	}
	return nil
}

// show puts what drifts in the module's state.
func (k *checker) show() []checkEffect {
	state := k.drift.state()
	return []checkEffect{driftShown{State: state}, DriftCounted{Objects: len(state)}}
}

// stepCheck steps the checker with the module as it is and takes back
// what concerns the core: what drifts, for its state.
func (c *Core) stepCheck(ev checkEvent, env Env) []Effect {
	cenv := checkEnv{Now: env.Now, Enabled: c.state.Enabled, Maintenance: c.InMaintenance(), Busy: c.Busy(),
		Values: c.scope().Snapshot()}
	return absorb(c.check.Step(ev, cenv), func(e checkEffect) []Effect {
		switch e := e.(type) {
		case driftShown:
			c.state.Drift = e.State
			return []Effect{Publish{}}
		case Log, Enqueue:
			return []Effect{e.(Effect)}
		}
		return []Effect{CheckEffect{Effect: e}}
	})
}

func (Log) checkEffect()     {}
func (Enqueue) checkEffect() {}
