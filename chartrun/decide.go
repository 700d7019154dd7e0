package chartrun

import (
	"fmt"

	"helm.sh/helm/v3/pkg/release"
)

// action is what Upgrade does with a release.
type plan int

const (
	planInstall plan = iota
	planUpgrade
	planSkip
	// planReinstall clears a first release that never deployed.
	planReinstall
	// planRollback brings a release left pending by a killed operator back
	// to its last deployed revision before the upgrade.
	planRollback
)

// decide picks what to do from the release's history (any order), the
// checksum wanted and the number of absent resources. It never returns a
// plan for a foreign release: that is an error.
func decide(history []*release.Release, checksum string, absent int) (plan, string, error) {
	if len(history) == 0 {
		return planInstall, "not installed", nil
	}
	last, deployed := latest(history), lastDeployed(history)
	if last.Labels[LabelHeritage] != HeritageValue {
		return 0, "", fmt.Errorf("%w: %s (revision %d)", ErrForeignRelease, last.Name, last.Version)
	}
	switch last.Info.Status {
	case release.StatusPendingInstall, release.StatusPendingUpgrade, release.StatusPendingRollback:
		if deployed == nil {
			return planReinstall, fmt.Sprintf("stuck in %s with no deployed revision", last.Info.Status), nil
		}
		return planRollback, fmt.Sprintf("stuck in %s", last.Info.Status), nil
	case release.StatusFailed, release.StatusUninstalled, release.StatusUninstalling, release.StatusSuperseded, release.StatusUnknown:
		if deployed == nil {
			return planReinstall, fmt.Sprintf("last revision %s and none deployed", last.Info.Status), nil
		}
		return planUpgrade, fmt.Sprintf("last revision %s", last.Info.Status), nil
	}
	switch {
	case last.Labels[LabelChecksum] != checksum:
		return planUpgrade, "chart or values changed", nil
	case absent > 0:
		return planUpgrade, fmt.Sprintf("%d resources absent", absent), nil
	}
	return planSkip, "up to date", nil
}

func latest(history []*release.Release) *release.Release {
	var l *release.Release
	for _, r := range history {
		if l == nil || r.Version > l.Version {
			l = r
		}
	}
	return l
}

func lastDeployed(history []*release.Release) *release.Release {
	var d *release.Release
	for _, r := range history {
		if r.Info != nil && r.Info.Status == release.StatusDeployed && (d == nil || r.Version > d.Version) {
			d = r
		}
	}
	return d
}
