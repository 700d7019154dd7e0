package chartrun

import (
	"context"
	"fmt"
	"time"

	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/release"
)

// Destructive is something a run did to a release beyond installing or
// upgrading it from the module's chart: taking over a release another tool
// installed, or throwing away a stuck revision. Each is logged at WARN with
// its reason when it happens and returned, so the caller can count it.
type Destructive struct {
	// Action is ActionAdopt or ActionClear.
	Action string
	// Reason is a bounded value fit for a metric label: ReasonUnlabelled
	// for an adoption, the stuck revision's status ("pending-upgrade",
	// "failed", …) for a clear.
	Reason string
}

// Destructive actions and reasons.
const (
	// ActionAdopt: a release named after the module whose latest revision
	// lacks the heritage label is taken over (upgraded or uninstalled).
	ActionAdopt = "adopt"
	// ActionClear: a stuck release is rolled back to its last deployed
	// revision, or uninstalled when none deployed, before the write.
	ActionClear = "clear"
	// ReasonUnlabelled is the reason of every adoption.
	ReasonUnlabelled = "unlabelled"
)

// clear unsticks the release before the write: a pending revision over a
// deployed one is rolled back to the deployed one (then upgraded), a
// release that never deployed is uninstalled (then installed). Other plans
// pass unchanged.
func (r *Releaser) clear(ctx context.Context, cfg *action.Configuration, p plan, name string,
	history []*release.Release) (plan, *Destructive, error) {
	last := latest(history)
	var done string
	switch p {
	case planRollback:
		to := lastDeployed(history).Version
		if err := r.rollback(ctx, cfg, name, to); err != nil {
			return p, nil, err
		}
		p, done = planUpgrade, fmt.Sprintf("rolled back to revision %d", to)
	case planReinstall:
		if err := r.uninstall(ctx, cfg, name); err != nil {
			return p, nil, err
		}
		p, done = planInstall, "uninstalled (no revision deployed)"
	case planFailUpgrade:
		if err := markFailed(cfg, last, "Interrupted: uninstalling when the operator stopped; the module is enabled, so addon-operator upgrades it"); err != nil {
			return p, nil, fmt.Errorf("release %s: %w", name, err)
		}
		p, done = planUpgrade, fmt.Sprintf("revision %d marked failed (the module is enabled), then upgraded", last.Version)
	default:
		return p, nil, nil
	}
	status := statusOf(last)
	r.opts.Log.Warn(ClearedMessage, "release", name, "revision", last.Version, "status", status,
		"reason", fmt.Sprintf("release %s %s: %s", status, sinceOf(last), done))
	return p, &Destructive{Action: ActionClear, Reason: status}, nil
}

// markInterrupted rewrites the status of every revision older than newest
// that a killed run left pending (pending-upgrade under the deployed one
// after a clear, or left by an older version): failed, with a description
// saying why, so that helm history shows no operation in progress. A
// revision that is gone (pruned by MaxHistory) or no longer pending is left
// alone. A failure is logged, not returned: the history is cosmetic, and
// the next run tries again.
func (r *Releaser) markInterrupted(cfg *action.Configuration, name string, history []*release.Release, newest int) {
	for _, h := range history {
		if h.Version >= newest || h.Info == nil || !h.Info.Status.IsPending() {
			continue
		}
		rel, err := cfg.Releases.Get(name, h.Version)
		if err != nil || rel.Info == nil || !rel.Info.Status.IsPending() {
			continue
		}
		was := rel.Info.Status
		rel.SetStatus(release.StatusFailed, fmt.Sprintf("Interrupted: %s when the operator stopped; cleared by addon-operator, superseded by revision %d", was, newest))
		if err := cfg.Releases.Update(rel); err != nil {
			r.opts.Log.Warn("cannot mark interrupted helm revision failed", "release", name, "revision", h.Version, "err", err)
			continue
		}
		r.opts.Log.Info("marked interrupted helm revision failed", "release", name, "revision", h.Version,
			"was", was.String(), "superseded_by", newest)
	}
}

// markFailed rewrites the status of the revision in helm's storage.
func markFailed(cfg *action.Configuration, rel *release.Release, why string) error {
	stored, err := cfg.Releases.Get(rel.Name, rel.Version)
	if err != nil {
		return fmt.Errorf("read revision %d: %w", rel.Version, err)
	}
	stored.SetStatus(release.StatusFailed, why)
	if err := cfg.Releases.Update(stored); err != nil {
		return fmt.Errorf("mark revision %d failed: %w", rel.Version, err)
	}
	return nil
}

// statusOf is the revision's status ("unknown" without one).
func statusOf(rel *release.Release) string {
	if rel.Info == nil || rel.Info.Status == "" {
		return release.StatusUnknown.String()
	}
	return rel.Info.Status.String()
}

// sinceOf says since when the revision has had its status, when helm
// recorded it (a pending revision's LastDeployed is when its run started).
func sinceOf(rel *release.Release) string {
	if rel.Info == nil || rel.Info.LastDeployed.IsZero() {
		return "(time unknown)"
	}
	return "since " + rel.Info.LastDeployed.UTC().Format(time.RFC3339)
}
