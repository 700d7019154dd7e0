package chartrun

import (
	"testing"

	"helm.sh/helm/v3/pkg/release"
)

// recovery says what a run (module enabled) or a delete (disabled) does
// with a release whose latest revision helm left stuck, naming the
// revision and state found; nothing for a release that is not stuck.
func TestRecovery(t *testing.T) {
	deployed := rev(1, release.StatusDeployed, "s", true)
	superseded := rev(1, release.StatusSuperseded, "s", true)
	tests := []struct {
		name          string
		history       []*release.Release
		enabled, gone string
	}{
		{"none", nil, "", ""},
		{"deployed", []*release.Release{deployed}, "", ""},
		{"failed upgrade", []*release.Release{deployed, rev(2, release.StatusFailed, "s", true)}, "", ""},
		{"pending-install", []*release.Release{rev(1, release.StatusPendingInstall, "s", true)},
			"revision 1 left pending-install: uninstalled (none deployed), then installed",
			"revision 1 left pending-install: uninstalled again, then afterDeleteHelm"},
		{"pending-upgrade", []*release.Release{deployed, rev(2, release.StatusPendingUpgrade, "s", true)},
			"revision 2 left pending-upgrade: rolled back to revision 1, then upgraded; revision 2 marked failed",
			"revision 2 left pending-upgrade: uninstalled again, then afterDeleteHelm"},
		{"pending-rollback", []*release.Release{superseded, rev(2, release.StatusDeployed, "s", true), rev(3, release.StatusPendingRollback, "s", true)},
			"revision 3 left pending-rollback: rolled back to revision 2, then upgraded; revision 3 marked failed",
			"revision 3 left pending-rollback: uninstalled again, then afterDeleteHelm"},
		{"uninstalling", []*release.Release{superseded, rev(2, release.StatusUninstalling, "s", true)},
			"revision 2 left uninstalling: marked failed, then upgraded",
			"revision 2 left uninstalling: uninstalled again, then afterDeleteHelm"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := recovery(tt.history, true); got != tt.enabled {
				t.Errorf("enabled: %q\nwant %q", got, tt.enabled)
			}
			if got := recovery(tt.history, false); got != tt.gone {
				t.Errorf("disabled: %q\nwant %q", got, tt.gone)
			}
		})
	}
}

func TestStuckStates(t *testing.T) {
	for state, want := range map[string]bool{"pending-install": true, "pending-upgrade": true, "pending-rollback": true,
		"uninstalling": true, "failed": false, "deployed": false, "superseded": false, "uninstalled": false} {
		if IsStuckState(state) != want || stuck(rev(1, release.Status(state), "", true)) != want {
			t.Errorf("%s: stuck %v, want %v", state, IsStuckState(state), want)
		}
	}
}
