package chartrun

import (
	"fmt"

	"helm.sh/helm/v3/pkg/release"
)

// ClearedMessage is the message of the WARN record of each recovery of a
// stuck release (and of a clear of one that never deployed).
const ClearedMessage = "cleared stuck helm release"

// stuck tells whether helm left the revision in a state that no action of
// helm's starts from by itself: pending-install, pending-upgrade,
// pending-rollback (an upgrade refuses "another operation is in
// progress") or uninstalling. No run of this operator writes such a
// revision when the module's next run reads it: a module's helm actions
// go one at a time through its worker, and only the leader runs them.
func stuck(rel *release.Release) bool {
	if rel == nil || rel.Info == nil {
		return false
	}
	return rel.Info.Status.IsPending() || rel.Info.Status == release.StatusUninstalling
}

// StuckStates are the states recovered, the values of the state label of
// helm_recoveries_total.
var StuckStates = []string{release.StatusPendingInstall.String(), release.StatusPendingUpgrade.String(),
	release.StatusPendingRollback.String(), release.StatusUninstalling.String()}

// IsStuckState tells whether state is one of StuckStates.
func IsStuckState(state string) bool {
	for _, s := range StuckStates {
		if s == state {
			return true
		}
	}
	return false
}

// recovery says what the module's next run does with a stuck release ("":
// it is not stuck): for an enabled module what Upgrade's plan makes of it,
// for a disabled one the uninstall that finishes it. It reads the history
// only, as plan does.
func recovery(history []*release.Release, enabled bool) string {
	last := latest(history)
	if !stuck(last) {
		return ""
	}
	found := fmt.Sprintf("revision %d left %s", last.Version, statusOf(last))
	if !enabled {
		return found + ": uninstalled again, then afterDeleteHelm"
	}
	p, _ := decide(history, "", nil)
	switch p {
	case planRollback:
		return fmt.Sprintf("%s: rolled back to revision %d, then upgraded; revision %d marked failed",
			found, lastDeployed(history).Version, last.Version)
	case planFailUpgrade:
		return found + ": marked failed, then upgraded"
	default:
		return found + ": uninstalled (none deployed), then installed"
	}
}
