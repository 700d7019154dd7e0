package module

import (
	"fmt"
	"log/slog"

	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/hook/bindings"
	"github.com/addon-actors/addon-operator/messages"
)

// UninstalledMessage is the message of the WARN record of the uninstall of
// a disabled module's release.
const UninstalledMessage = "uninstalled release of disabled module"

// deletion is the sub-machine of a module delete's own steps:
// BeforeDeleteHelm runs its hooks only when the module has a chart whose
// release exists, Delete uninstalls the release (AfterDeleteHelm's hooks
// and DropWebhooks follow, run by the core and webhooks).
type deletion struct {
	name     string
	hasChart bool
}

// deleteEvent is an input of deletion, with the running delete.
type deleteEvent interface{ deleteEvent() }

// deleteEntered: the delete entered Phase; Hooks: the module has
// beforeDeleteHelm hooks.
type deleteEntered struct {
	Phase Phase
	Hooks bool
}

func (deleteEntered) deleteEvent() {}

// ReleaseChecked says whether the release exists (CheckRelease).
type ReleaseChecked struct{ Result worker.ReleaseResult }

func (ReleaseChecked) deleteEvent() {}

// DeleteFinished is the worker's uninstall result.
type DeleteFinished struct{ Result worker.DeleteResult }

func (DeleteFinished) deleteEvent() {}

// deleteEnded: the delete ended, with Err.
type deleteEnded struct{ Err error }

func (deleteEnded) deleteEvent() {}

// deleteEnv is the running delete, as the core tells it.
type deleteEnv struct {
	Phase Phase
	// Running: beforeDeleteHelm's hooks are running.
	Running bool
	Task    messages.Task
}

// deleteEffect is an output of deletion.
type deleteEffect interface{ deleteEffect() }

// CheckRelease asks whether the release exists (ReleaseChecked).
type CheckRelease struct{}

func (CheckRelease) deleteEffect() {}

// Uninstall uninstalls the release.
type Uninstall struct{}

func (Uninstall) deleteEffect() {}

// DeleteFailed counts a failed delete of the module (a
// beforeDeleteHelm or afterDeleteHelm hook, or the uninstall).
type DeleteFailed struct{ Err error }

func (DeleteFailed) deleteEffect() {}

// beforeDeleteHooks: the release exists, its beforeDeleteHelm hooks
// run.
type beforeDeleteHooks struct{}

func (beforeDeleteHooks) deleteEffect() {}

// releaseGone: the release is uninstalled.
type releaseGone struct{}

func (releaseGone) deleteEffect() {}

// Step takes ev in the running delete and returns what it calls for; a
// result that is not the phase's is late, and calls for nothing.
func (d deletion) Step(ev deleteEvent, env deleteEnv) []deleteEffect {
	switch e := ev.(type) {
	case deleteEntered:
		return d.entered(e)
	case ReleaseChecked:
		return d.releaseChecked(e.Result, env)
	case DeleteFinished:
		return d.deleteFinished(e.Result, env)
	case deleteEnded:
		if e.Err == nil {
			return nil
		}
		return []deleteEffect{DeleteFailed{Err: e.Err}}
	default:
		panic(fmt.Sprintf("module: event %T has no case in deletion.Step", ev))
	}
}

func (d deletion) entered(e deleteEntered) []deleteEffect {
	switch e.Phase {
	case BeforeDeleteHelm:
		if !d.hasChart || !e.Hooks {
			return []deleteEffect{phaseOver{Next: Delete}}
		}
		return []deleteEffect{CheckRelease{}} // ReleaseChecked continues
	case Delete:
		return []deleteEffect{Uninstall{}}
	}
	return nil
}

// releaseChecked runs the beforeDeleteHelm hooks when the release exists;
// without one the delete goes on to the uninstall (a no-op then).
func (d deletion) releaseChecked(r worker.ReleaseResult, env deleteEnv) []deleteEffect {
	if env.Phase != BeforeDeleteHelm || env.Running {
		return nil
	}
	switch {
	case r.Err != nil:
		return []deleteEffect{phaseOver{Err: fmt.Errorf("beforeDeleteHelm: %w", r.Err)}}
	case !r.Exists:
		return []deleteEffect{phaseOver{Next: Delete}}
	}
	return []deleteEffect{beforeDeleteHooks{}}
}

// deleteFinished counts what the uninstall destroyed and goes on.
func (d deletion) deleteFinished(r worker.DeleteResult, env deleteEnv) []deleteEffect {
	if env.Phase != Delete {
		return nil
	}
	out := []deleteEffect{DestructiveDone{Actions: r.Removal.Destructive}}
	if r.Err != nil {
		return append(out, phaseOver{Err: fmt.Errorf("helm uninstall: %w", r.Err)})
	}
	if r.Removal.Revision > 0 {
		t := env.Task
		// Counted before the log: a reader of the log finds the metric updated.
		out = append(out, DestructiveDone{Actions: []worker.Destructive{{Action: worker.ActionUninstall, Reason: t.Cause}}},
			logAt(slog.LevelWarn, UninstalledMessage, "release", d.name, "revision", r.Removal.Revision,
				"status", r.Removal.Status, "reason", t.Reason))
	}
	return append(out, releaseGone{}, phaseOver{})
}

// stepDelete steps the deletion sub-machine in the running delete and
// takes back what concerns the core: the phases' ends, the hooks to run,
// the release's revision.
func (c *Core) stepDelete(ev deleteEvent, env Env) []Effect {
	denv := deleteEnv{Phase: c.Phase()}
	if c.run != nil {
		denv.Running, denv.Task = len(c.run.left) > 0, c.run.task
	}
	return absorb(c.del.Step(ev, denv), func(e deleteEffect) []Effect {
		switch e := e.(type) {
		case phaseOver:
			return c.phaseOver(e, env)
		case beforeDeleteHooks:
			c.run.left = c.ordered(bindings.BeforeDeleteHelm, false)
			return c.nextHook(env)
		case releaseGone:
			c.state.Revision = 0
			return nil
		case DestructiveDone, Log:
			return []Effect{e.(Effect)}
		}
		return []Effect{DeleteEffect{Effect: e}}
	})
}

func (phaseOver) deleteEffect()       {}
func (DestructiveDone) deleteEffect() {}
func (Log) deleteEffect()             {}
