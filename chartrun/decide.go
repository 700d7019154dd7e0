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
	// planFailUpgrade takes a release left uninstalling, whose module is
	// enabled, as failed: its revision is marked failed, then upgraded
	// (helm upgrades a failed release that has no deployed revision).
	planFailUpgrade
)

func (p plan) String() string {
	return [...]string{"install", "upgrade", "skip", "uninstall and install", "roll back and upgrade",
		"mark failed and upgrade"}[p]
}

// ours tells whether a revision carries the heritage label: this operator
// wrote it. A release named after a module whose latest revision does not is
// still that module's release (installed by the original addon-operator, an
// older version or plain helm): it is adopted, never skipped, so its next
// revision carries the label.
func ours(rel *release.Release) bool {
	return rel.Labels[LabelHeritage] == HeritageValue
}

// decide picks what to do from the release's history (any order), the
// checksum wanted and the objects of the deployed revision that are absent.
// A stuck release is cleared the same way whoever installed it.
func decide(history []*release.Release, checksum string, absent []Object) (plan, string) {
	if len(history) == 0 {
		return planInstall, "not installed"
	}
	last, deployed := latest(history), lastDeployed(history)
	status := release.StatusUnknown
	if last.Info != nil {
		status = last.Info.Status
	}
	switch {
	case status == release.StatusDeployed:
	case status == release.StatusUninstalling:
		return planFailUpgrade, fmt.Sprintf("revision %d left %s", last.Version, status)
	case deployed == nil:
		return planReinstall, fmt.Sprintf("revision %d is %s and none deployed", last.Version, status)
	case status.IsPending():
		return planRollback, fmt.Sprintf("revision %d left %s", last.Version, status)
	default:
		return planUpgrade, fmt.Sprintf("revision %d is %s", last.Version, status)
	}
	switch {
	case !ours(last):
		return planUpgrade, fmt.Sprintf("revision %d not labelled %s=%s: adopted", last.Version, LabelHeritage, HeritageValue)
	case last.Labels[LabelChecksum] != checksum:
		return planUpgrade, "manifests or values changed"
	case len(absent) > 0:
		return planUpgrade, "absent: " + objectList(absent)
	}
	return planSkip, "checksum equal, no object absent"
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
