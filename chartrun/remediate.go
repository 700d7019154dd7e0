package chartrun

import (
	"context"
	"fmt"

	"helm.sh/helm/v3/pkg/release"
)

// Remedy asks what follows a failed upgrade of a release: roll it back to
// its last deployed revision (Rollback), uninstall a first install that
// never deployed (Uninstall). AfterWait: the upgrade itself deployed, and
// the wait for its workloads failed; the revision to go back to is then the
// one it superseded.
type Remedy struct {
	Release             string
	Rollback, Uninstall bool
	AfterWait           bool
}

// RemedyAction is what Remediate did.
type RemedyAction string

// Remediate's actions.
const (
	// RemedyNone: nothing to do (nothing asked for this case, or the
	// release still runs its last deployed revision: helm failed before
	// writing one).
	RemedyNone        RemedyAction = "none"
	RemedyRolledBack  RemedyAction = "rolled-back"
	RemedyUninstalled RemedyAction = "uninstalled"
)

// Remedied says what Remediate did, and why.
type Remedied struct {
	Action RemedyAction
	// Revision is the revision rolled back to.
	Revision int
	Reason   string
}

// Remediate follows a failed upgrade of req.Release as req asks: a rollback
// to the last deployed revision, or the uninstall of a first install that
// failed. It never uninstalls a release that once deployed.
func (r *Releaser) Remediate(ctx context.Context, req Remedy) (Remedied, error) {
	if err := r.checkName(req.Release); err != nil {
		return Remedied{}, err
	}
	cfg, err := r.config()
	if err != nil {
		return Remedied{}, err
	}
	history, err := r.history(cfg, req.Release)
	if err != nil {
		return Remedied{}, err
	}
	out := remedyFor(history, req)
	switch out.Action {
	case RemedyRolledBack:
		err = r.rollback(ctx, cfg, req.Release, out.Revision)
	case RemedyUninstalled:
		err = r.uninstall(ctx, cfg, req.Release)
	}
	if err != nil {
		return out, err
	}
	return out, nil
}

// remedyFor decides from the release's history (any order) what follows its
// failed upgrade.
func remedyFor(history []*release.Release, req Remedy) Remedied {
	last := latest(history)
	if last == nil {
		return Remedied{Action: RemedyNone, Reason: "no release"}
	}
	status := statusOf(last)
	target := lastDeployed(history)
	if target == nil || req.AfterWait && target == last {
		target = lastBefore(history, last.Version)
	}
	switch {
	case target == last:
		return Remedied{Action: RemedyNone, Reason: fmt.Sprintf("revision %d is %s: nothing was written", last.Version, status)}
	case target != nil && req.Rollback:
		return Remedied{Action: RemedyRolledBack, Revision: target.Version,
			Reason: fmt.Sprintf("revision %d is %s: back to revision %d", last.Version, status, target.Version)}
	case target == nil && req.Uninstall && !everDeployed(history, last):
		return Remedied{Action: RemedyUninstalled, Reason: fmt.Sprintf("revision %d is %s and none deployed", last.Version, status)}
	}
	return Remedied{Action: RemedyNone, Reason: fmt.Sprintf("revision %d is %s: left as it is", last.Version, status)}
}

// lastBefore is the newest revision below version that deployed once
// (deployed or superseded).
func lastBefore(history []*release.Release, version int) *release.Release {
	var d *release.Release
	for _, r := range history {
		if r.Version < version && wasDeployed(r) && (d == nil || r.Version > d.Version) {
			d = r
		}
	}
	return d
}

// everDeployed tells whether a revision other than last deployed once.
func everDeployed(history []*release.Release, last *release.Release) bool {
	for _, r := range history {
		if r != last && wasDeployed(r) {
			return true
		}
	}
	return false
}

func wasDeployed(r *release.Release) bool {
	return r.Info != nil && (r.Info.Status == release.StatusDeployed || r.Info.Status == release.StatusSuperseded)
}
