package module

import (
	"fmt"
	"log/slog"

	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/messages"
)

// What follows a failed release (module.yaml's remediation over the
// operator's ADDON_OPERATOR_REMEDIATION_*): a failed helm step is
// remediated (Remediate) before its run fails with the step's error; a
// module run that fails as many times in a row as retries allows stalls
// (TaskDone.Stalled): the queue retries it no more until a run of the
// module takes its place.

// RemediationDone is the worker's answer to Remediate.
type RemediationDone struct {
	Remedied worker.Remedied
	Err      error
}

func (RemediationDone) moduleEvent() {}

// Remediate follows the helm step's failure: a rollback to the last
// deployed revision (Rollback), the uninstall of a first install
// (Uninstall); AfterWait: the release deployed and its wait failed.
type Remediate struct{ Rollback, Uninstall, AfterWait bool }

func (Remediate) moduleEffect() {}

// helmFailed fails the run with the helm step's error, once the release is
// remediated when the module asks for it (never in maintenance mode: the
// release is left as it is then).
func (c *Core) helmFailed(r worker.HelmResult, env Env) []Effect {
	err := fmt.Errorf("helm upgrade: %w", r.Err)
	rem := c.remedy
	if !(rem.Rollback() || rem.Uninstall()) || c.InMaintenance() {
		return c.finish(err, env)
	}
	c.run.helmErr = err
	afterWait := r.Outcome.Upgraded && r.Outcome.Wait != nil
	return []Effect{Remediate{Rollback: rem.Rollback(), Uninstall: rem.Uninstall(), AfterWait: afterWait}}
}

// remediationDone fails the run with the helm step's error: the module
// stays failing, and its retry upgrades again. A remediation that failed
// is reported and the release left as it is.
func (c *Core) remediationDone(e RemediationDone, env Env) []Effect {
	if c.run == nil || c.run.phase != Helm || c.run.helmErr == nil {
		return nil
	}
	var out []Effect
	d := e.Remedied
	switch {
	case e.Err != nil:
		c.state.Remedied = "remediation failed, the release is left as it is: " + e.Err.Error()
		out = append(out, logAt(slog.LevelError, "remediation of the failed helm step failed; the release is left as it is",
			"err", e.Err))
	case d.Action == "rolled-back":
		c.state.Remedied = fmt.Sprintf("rolled back to revision %d", d.Revision)
		c.state.Revision = d.Revision
		out = append(out, logAt(slog.LevelWarn, "helm step failed; release rolled back", "revision", d.Revision, "reason", d.Reason))
	case d.Action == "uninstalled":
		c.state.Remedied, c.state.Revision = "uninstalled", 0
		out = append(out, logAt(slog.LevelWarn, "helm step failed; first install uninstalled", "reason", d.Reason))
	default:
		c.state.Remedied = ""
		out = append(out, logAt(slog.LevelInfo, "helm step failed; nothing to remediate", "reason", d.Reason))
	}
	return append(out, c.finish(c.run.helmErr, env)...)
}

// stalls tells whether a failed module run stalls: it is the retries-th
// failure in a row (the queue counts them on the task, 0 before the first
// failure).
func stalls(rem layout.Remediation, t messages.Task) bool {
	limit := rem.RetryLimit()
	return t.Kind == messages.TaskModuleRun && limit > 0 && t.Attempts+1 >= limit
}

// setStalled publishes the stalled state, and its metric when it changes.
func (c *Core) setStalled(on bool) []Effect {
	if c.state.Stalled == on {
		return nil
	}
	c.state.Stalled = on
	return []Effect{StalledSet{On: on}}
}

// StalledSet: the module stalled (On) or runs again, for the metric
// module_stalled and the log.
type StalledSet struct{ On bool }

func (StalledSet) moduleEffect() {}
