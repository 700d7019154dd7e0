package chartrun

import (
	"context"
	"errors"
	"fmt"
	"time"

	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/release"
	"helm.sh/helm/v3/pkg/storage/driver"

	"github.com/addon-actors/addon-operator/forbidden"
)

// Request is one upgrade-or-install of a module's release.
type Request struct {
	// Release is the release name: the module's name in kebab-case.
	Release string
	// ChartDir is the module dir (Chart.yaml, templates/, values.yaml).
	ChartDir string
	// Values are the module's merged values (without enabledModules).
	Values map[string]any
	// Drift asks a run that skips helm for the release's drift.
	Drift bool
	// Force upgrades a deployed release that is up to date (a reconcile
	// asked on the module's Module object): a new revision with the same
	// manifests, which puts back what was changed behind helm's back.
	Force bool
	// Maintenance runs in maintenance mode (see maintenance.go): the
	// release is written once more with its objects labelled, then left
	// as it is.
	Maintenance bool
	// Wait makes Upgrade return only once the release's workloads are
	// ready (see waitReady), or fail naming those that are not after
	// WaitTimeout (0: DefaultWaitTimeout). It waits after a run that
	// skipped helm too: a run retried after a wait that timed out finds the
	// release up to date, and must still wait for it.
	Wait        bool
	WaitTimeout time.Duration
	// Progress, when set, is told the objects not ready while Upgrade
	// waits ("Deployment ns/web: 1/3 available"), when they change and at
	// most once a second, from Upgrade's goroutine.
	Progress func(notReady []string)
}

// Action says what Upgrade did.
type Action string

const (
	// Skipped: the deployed release has the same checksum and all its
	// objects exist.
	Skipped   Action = "skipped"
	Installed Action = "installed"
	Upgraded  Action = "upgraded"
	// NoChart: the module dir has no Chart.yaml and no templates/, so the
	// module has no helm phase. Not a failure.
	NoChart Action = "no-chart"
)

// Result says what Upgrade did.
type Result struct {
	Action Action
	// Upgraded is true when the release was installed or upgraded.
	Upgraded bool
	// Revision is the deployed revision after the run (0 for NoChart).
	Revision int
	Checksum string
	// Reason explains Action, for the log and the module's state.
	Reason string
	// Destructive lists what the run adopted or cleared (each logged at
	// WARN), for the caller to count.
	Destructive []Destructive
	// Drift, when the run skipped helm and Request.Drift asked, are the
	// release's objects that do not hold what the manifest sets.
	Drift []ObjectDrift
	// Wait, when Request.Wait asked, says how the wait for the release's
	// workloads ended (also when it fails the run).
	Wait *WaitOutcome
}

// Upgrade installs or upgrades the release from the chart in ChartDir with
// Values, unless the deployed release was made from the same rendered
// manifests and values and none of its objects is absent. A stuck release
// is cleared first (see decide). A release with the module's name that
// this operator did not label is adopted: logged once, cleared when stuck,
// and upgraded (never skipped), its new revision labelled. With req.Wait it
// then waits for the release's workloads (waitReady), whether it wrote the
// release or skipped it.
func (r *Releaser) Upgrade(ctx context.Context, req Request) (Result, error) {
	res, err := r.upgradeRelease(ctx, req)
	return res, forbidden.Explain(err) // helm's refusals name the rule to add
}

func (r *Releaser) upgradeRelease(ctx context.Context, req Request) (Result, error) {
	if err := r.checkName(req.Release); err != nil {
		return Result{}, err
	}
	chrt, err := loadChart(req.ChartDir, req.Release)
	if errors.Is(err, ErrNoChart) {
		return Result{Action: NoChart, Reason: "no Chart.yaml and no templates/"}, nil
	}
	if err != nil {
		return Result{}, err
	}
	cfg, err := r.config()
	if err != nil {
		return Result{}, err
	}
	if cfg.Capabilities, err = r.capabilities(ctx); err != nil {
		return Result{}, err
	}
	// The history is read while the chart renders (see run), unless the
	// index of the start has it.
	history, indexed := r.historyOf(ctx, cfg, req.Release)
	if req.Maintenance { // a release kept in maintenance is not even rendered
		read := <-history
		if kept := keptInMaintenance(read.history); kept != nil || read.err != nil {
			return keptResult(kept), read.err
		}
		history = readAlready(read)
	}
	manifests, err := r.render(chrt, req.Release, req.Values, cfg.Capabilities)
	if err == nil && req.Maintenance {
		manifests, err = labelObjects(manifests)
	}
	if err != nil {
		<-history
		return Result{}, err
	}
	sum, err := Checksum(manifests, req.Values)
	if err != nil {
		<-history
		return Result{}, err
	}
	return r.run(ctx, cfg, req, chrt, rendered{manifests, sum}, history, indexed)
}

// rendered is what the chart rendered to, and its checksum.
type rendered struct {
	manifests string
	sum       string
}

// run decides from the history and applies the plan. A module run waits
// for every request here, so the three that do not depend on each other
// overlap: the history is read while the chart renders, and the rendered
// objects are checked for absence while the history is read. That check
// counts only when the deployed revision is the latest and has the
// rendered checksum: its objects are then exactly the rendered ones (helm's
// hooks aside, which a release's manifest leaves out), so the outcome is
// the one a check of its manifest would give.
//
// A history from the start's index (indexed) only ever decides a skip, or
// the install of a release it did not have: any other outcome is decided
// again from the history read now.
func (r *Releaser) run(ctx context.Context, cfg *action.Configuration, req Request, chrt *chart.Chart, out rendered,
	history <-chan historyRead, indexed bool) (Result, error) {
	var check *absentCheck
	if !indexed { // an indexed history is there already: no need to guess
		check = r.startAbsentCheck(ctx, out.manifests, false)
	}
	read := <-history
	if read.err != nil {
		check.cancel()
		return Result{}, read.err
	}
	var absent []Object
	if d := lastDeployed(read.history); d != nil && d == latest(read.history) && d.Labels[LabelChecksum] == out.sum {
		if check == nil {
			check = r.startAbsentCheck(ctx, out.manifests, true)
		}
		var err error
		if absent, err = check.result(); err != nil {
			return Result{}, fmt.Errorf("release %s: %w", req.Release, err)
		}
	} else {
		check.cancel()
	}
	switch {
	case indexed && len(read.history) == 0: // an install
		if store, ok := cfg.Releases.Driver.(*releaseSecrets); ok {
			store.expectAbsent(req.Release)
		}
	case indexed:
		if p, _ := decide(read.history, out.sum, absent); p != planSkip || req.Force {
			return r.run(ctx, cfg, req, chrt, out, r.readHistory(cfg, req.Release), false)
		}
	}
	res, err := r.apply(ctx, cfg, req, chrt, out.sum, read.history, absent)
	if err == nil && res.Action == Skipped && req.Drift {
		res.Drift = r.skippedDrift(ctx, req.Release, out.manifests)
	}
	if err == nil && req.Wait {
		var waited WaitOutcome
		waited, err = r.waitReady(ctx, req, out.manifests)
		res.Wait = &waited
	}
	return res, err
}

// skippedDrift is the drift of a release that a run left as it is. A check
// that fails does not fail the run (nothing was wrong with the release
// helm knows): it is logged, and the periodic check tries again.
func (r *Releaser) skippedDrift(ctx context.Context, name, manifests string) []ObjectDrift {
	d, err := r.driftOfRendered(ctx, manifests)
	if err != nil {
		r.opts.Log.Warn("drift check", "release", name, "err", err)
	}
	return d
}

// historyOf is the release's history from the start's index when it has
// it (indexed), else read in the background.
func (r *Releaser) historyOf(ctx context.Context, cfg *action.Configuration, name string) (<-chan historyRead, bool) {
	if h, ok := r.take(ctx, name); ok {
		return readAlready(historyRead{history: h}), true
	}
	return r.readHistory(cfg, name), false
}

// readAlready gives a history that has been read as one being read.
func readAlready(read historyRead) <-chan historyRead {
	out := make(chan historyRead, 1)
	out <- read
	return out
}

// apply carries out what decide makes of the history: nothing, an
// install, an upgrade, or first clearing a stuck release. Revisions that a
// killed run left pending under the new one are marked failed.
func (r *Releaser) apply(ctx context.Context, cfg *action.Configuration, req Request, chrt *chart.Chart, sum string,
	history []*release.Release, absent []Object) (Result, error) {
	p, reason := decide(history, sum, absent)
	if p == planSkip && req.Force {
		p, reason = planUpgrade, "reconcile requested"
	}
	if p == planSkip {
		last := latest(history)
		r.markInterrupted(cfg, req.Release, history, last.Version)
		return Result{Action: Skipped, Revision: last.Version, Checksum: sum, Reason: reason}, nil
	}
	var done []Destructive
	if a := r.adopt(history); a != nil {
		done = append(done, *a)
	}
	r.opts.Log.Info("helm release", "release", req.Release, "plan", p.String(), "reason", reason)
	keepCaps := false
	defer func() {
		if !keepCaps {
			r.forgetCapabilities()
		}
	}()
	p, cleared, err := r.clear(ctx, cfg, p, req.Release, history)
	if cleared != nil {
		done = append(done, *cleared)
	}
	if err != nil {
		return Result{Destructive: done}, err
	}
	rel, err := r.write(ctx, cfg, p, req, chrt, sum)
	if err != nil {
		return Result{Destructive: done}, err
	}
	r.markInterrupted(cfg, req.Release, history, rel.Version)
	keepCaps = !mayChangeAPIs(append(history, rel)...)
	act := Upgraded
	if rel.Version == 1 {
		act = Installed
	}
	return Result{Action: act, Upgraded: true, Revision: rel.Version, Checksum: sum, Reason: reason, Destructive: done}, nil
}

// historyRead is the outcome of reading a release's history.
type historyRead struct {
	history []*release.Release
	err     error
}

// readHistory reads the release's history in the background.
func (r *Releaser) readHistory(cfg *action.Configuration, name string) <-chan historyRead {
	out := make(chan historyRead, 1)
	go func() {
		h, err := r.history(cfg, name)
		out <- historyRead{h, err}
	}()
	return out
}

func (r *Releaser) history(cfg *action.Configuration, name string) ([]*release.Release, error) {
	history, err := cfg.Releases.History(name)
	if err != nil && !errors.Is(err, driver.ErrReleaseNotFound) {
		return nil, fmt.Errorf("history of release %s: %w", name, err)
	}
	return history, nil
}

func (r *Releaser) write(ctx context.Context, cfg *action.Configuration, p plan, req Request, chrt *chart.Chart, sum string) (*release.Release, error) {
	if p == planInstall {
		return r.install(ctx, cfg, req, chrt, sum)
	}
	return r.upgrade(ctx, cfg, req, chrt, sum)
}
