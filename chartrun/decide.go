package chartrun

import (
	"fmt"
	"strings"

	"helm.sh/helm/v3/pkg/release"
)

// plan is what Upgrade does with a release.
type plan int

const (
	planInstall plan = iota
	planUpgrade
	planSkip
	// planReinstall clears a first release that never deployed (failed or
	// left pending-install): uninstall, then install.
	planReinstall
	// planRollback brings a release left pending-upgrade or
	// pending-rollback by a killed operator back to its last deployed
	// revision before the upgrade.
	planRollback
)

func (p plan) String() string {
	return [...]string{"install", "upgrade", "skip", "uninstall and install", "roll back and upgrade"}[p]
}

// checkOurs refuses a release whose latest revision does not carry the
// heritage label: someone else installed it, or took it over.
func checkOurs(history []*release.Release) error {
	if len(history) == 0 {
		return nil
	}
	if last := latest(history); last.Labels[LabelHeritage] != HeritageValue {
		return fmt.Errorf("%w: %s (revision %d)", ErrForeignRelease, last.Name, last.Version)
	}
	return nil
}

// decide picks what to do from the release's history (any order), the
// checksum wanted and the objects of the deployed revision that are absent.
// It never returns a plan for a foreign release: that is an error.
func decide(history []*release.Release, checksum string, absent []Object) (plan, string, error) {
	if len(history) == 0 {
		return planInstall, "not installed", nil
	}
	if err := checkOurs(history); err != nil {
		return 0, "", err
	}
	last, deployed := latest(history), lastDeployed(history)
	status := release.StatusUnknown
	if last.Info != nil {
		status = last.Info.Status
	}
	switch {
	case status == release.StatusDeployed:
	case deployed == nil:
		return planReinstall, fmt.Sprintf("revision %d is %s and none deployed", last.Version, status), nil
	case status.IsPending():
		return planRollback, fmt.Sprintf("revision %d left %s", last.Version, status), nil
	default:
		return planUpgrade, fmt.Sprintf("revision %d is %s", last.Version, status), nil
	}
	switch {
	case last.Labels[LabelChecksum] != checksum:
		return planUpgrade, "manifests or values changed", nil
	case len(absent) > 0:
		return planUpgrade, "absent: " + objectList(absent), nil
	}
	return planSkip, "up to date", nil
}

// objectList names the first few objects.
func objectList(objects []Object) string {
	const most = 5
	names := make([]string, 0, most)
	for i, o := range objects {
		if i == most {
			names = append(names, fmt.Sprintf("and %d more", len(objects)-most))
			break
		}
		names = append(names, o.String())
	}
	return strings.Join(names, ", ")
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
