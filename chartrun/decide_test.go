package chartrun

import (
	"errors"
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
		foreign bool
	}{
		{"none", nil, nil, planInstall, false},
		{"same", []*release.Release{rev(1, release.StatusDeployed, "s", true)}, nil, planSkip, false},
		{"changed", []*release.Release{rev(1, release.StatusDeployed, "old", true)}, nil, planUpgrade, false},
		{"absent", []*release.Release{rev(1, release.StatusDeployed, "s", true)}, gone, planUpgrade, false},
		{"only failed", []*release.Release{rev(1, release.StatusFailed, "s", true)}, nil, planReinstall, false},
		{"only pending-install", []*release.Release{rev(1, release.StatusPendingInstall, "s", true)}, nil, planReinstall, false},
		{"failed upgrade", []*release.Release{rev(1, release.StatusDeployed, "s", true), rev(2, release.StatusFailed, "s", true)}, nil, planUpgrade, false},
		{"pending-upgrade", []*release.Release{rev(2, release.StatusPendingUpgrade, "s", true), rev(1, release.StatusDeployed, "s", true)}, nil, planRollback, false},
		{"pending-rollback", []*release.Release{rev(1, release.StatusSuperseded, "s", true), rev(2, release.StatusDeployed, "s", true), rev(3, release.StatusPendingRollback, "s", true)}, nil, planRollback, false},
		{"foreign", []*release.Release{rev(1, release.StatusDeployed, "s", false)}, nil, 0, true},
		{"label taken off", []*release.Release{rev(1, release.StatusSuperseded, "s", true), rev(2, release.StatusDeployed, "s", false)}, nil, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, reason, err := decide(tt.history, "s", tt.absent)
			if tt.foreign {
				if !errors.Is(err, ErrForeignRelease) {
					t.Fatalf("decide = %v, %v; want ErrForeignRelease", got, err)
				}
				return
			}
			if err != nil || got != tt.want || reason == "" {
				t.Fatalf("decide = %v (%q), %v; want %v", got, reason, err, tt.want)
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
