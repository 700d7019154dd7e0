package chartrun

import (
	"testing"

	"helm.sh/helm/v3/pkg/release"
)

func rev(v int, status release.Status, sum string, ours bool) *release.Release {
	labels := map[string]string{LabelChecksum: sum}
	if ours {
		labels[LabelHeritage] = HeritageValue
	}
	return &release.Release{Name: "demo", Version: v, Info: &release.Info{Status: status}, Labels: labels}
}

func TestDecide(t *testing.T) {
	gone := []Object{{APIVersion: "v1", Kind: "ConfigMap", Namespace: "ns", Name: "demo-0"}}
	tests := []struct {
		name    string
		history []*release.Release
		absent  []Object
		want    plan
	}{
		{"none", nil, nil, planInstall},
		{"same", []*release.Release{rev(1, release.StatusDeployed, "s", true)}, nil, planSkip},
		{"changed", []*release.Release{rev(1, release.StatusDeployed, "old", true)}, nil, planUpgrade},
		{"absent", []*release.Release{rev(1, release.StatusDeployed, "s", true)}, gone, planUpgrade},
		{"only failed", []*release.Release{rev(1, release.StatusFailed, "s", true)}, nil, planReinstall},
		{"only pending-install", []*release.Release{rev(1, release.StatusPendingInstall, "s", true)}, nil, planReinstall},
		{"failed upgrade", []*release.Release{rev(1, release.StatusDeployed, "s", true), rev(2, release.StatusFailed, "s", true)}, nil, planUpgrade},
		{"pending-upgrade", []*release.Release{rev(2, release.StatusPendingUpgrade, "s", true), rev(1, release.StatusDeployed, "s", true)}, nil, planRollback},
		{"pending-rollback", []*release.Release{rev(1, release.StatusSuperseded, "s", true), rev(2, release.StatusDeployed, "s", true), rev(3, release.StatusPendingRollback, "s", true)}, nil, planRollback},
		// A module's release that we did not label is adopted: upgraded
		// even with the wanted checksum, cleared when stuck.
		{"not ours", []*release.Release{rev(1, release.StatusDeployed, "s", false)}, nil, planUpgrade},
		{"label taken off", []*release.Release{rev(1, release.StatusSuperseded, "s", true), rev(2, release.StatusDeployed, "s", false)}, nil, planUpgrade},
		{"not ours, only failed", []*release.Release{rev(1, release.StatusFailed, "", false)}, nil, planReinstall},
		{"not ours, pending-install", []*release.Release{rev(1, release.StatusPendingInstall, "", false)}, nil, planReinstall},
		{"not ours, pending-upgrade", []*release.Release{rev(1, release.StatusDeployed, "", false), rev(2, release.StatusPendingUpgrade, "", false)}, nil, planRollback},
		{"not ours, failed upgrade", []*release.Release{rev(1, release.StatusDeployed, "", false), rev(2, release.StatusFailed, "", false)}, nil, planUpgrade},
		// uninstalling (a killed uninstall) of an enabled module's release
		// is taken as failed and upgraded, never reinstalled.
		{"uninstalling", []*release.Release{rev(1, release.StatusSuperseded, "s", true), rev(2, release.StatusUninstalling, "s", true)}, nil, planFailUpgrade},
		{"uninstalling over deployed", []*release.Release{rev(1, release.StatusDeployed, "s", true), rev(2, release.StatusUninstalling, "s", true)}, nil, planFailUpgrade},
		{"not ours, uninstalling", []*release.Release{rev(1, release.StatusUninstalling, "", false)}, nil, planFailUpgrade},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, reason := decide(tt.history, "s", tt.absent)
			if got != tt.want || reason == "" {
				t.Fatalf("decide = %v (%q); want %v", got, reason, tt.want)
			}
		})
	}
}

func TestObjectListNamesTheFirstFew(t *testing.T) {
	var objects []Object
	for _, n := range []string{"a", "b", "c", "d", "e", "f", "g"} {
		objects = append(objects, Object{Kind: "ConfigMap", Namespace: "ns", Name: n})
	}
	want := "ConfigMap/ns/a, ConfigMap/ns/b, ConfigMap/ns/c, ConfigMap/ns/d, ConfigMap/ns/e, and 2 more"
	if got := objectList(objects); got != want {
		t.Fatalf("objectList = %q", got)
	}
}
