package chartrun

import (
	"testing"

	"helm.sh/helm/v3/pkg/release"
)

func revisions(statuses ...release.Status) []*release.Release {
	var out []*release.Release
	for i, s := range statuses {
		out = append(out, &release.Release{Name: "demo", Version: i + 1, Info: &release.Info{Status: s}})
	}
	return out
}

// What follows a failed upgrade, decided from the history: a rollback only
// to a revision that deployed, an uninstall only of a release that never
// deployed, nothing when helm wrote nothing.
func TestRemedyFor(t *testing.T) {
	const (
		dep, sup, fail = release.StatusDeployed, release.StatusSuperseded, release.StatusFailed
	)
	both := Remedy{Release: "demo", Rollback: true, Uninstall: true}
	for _, tc := range []struct {
		name     string
		history  []*release.Release
		req      Remedy
		want     RemedyAction
		revision int
	}{
		{"no release", nil, both, RemedyNone, 0},
		{"upgrade failed", revisions(sup, dep, fail), both, RemedyRolledBack, 2},
		{"upgrade failed, rollback not asked", revisions(dep, fail), Remedy{Uninstall: true}, RemedyNone, 0},
		{"helm wrote nothing", revisions(sup, dep), both, RemedyNone, 0},
		{"the wait failed after a deploy", revisions(sup, dep), Remedy{Rollback: true, AfterWait: true}, RemedyRolledBack, 1},
		{"first install failed", revisions(fail), both, RemedyUninstalled, 0},
		{"first install failed, kept", revisions(fail), Remedy{Rollback: true}, RemedyNone, 0},
		{"first install's wait failed", revisions(dep), Remedy{Uninstall: true, AfterWait: true}, RemedyUninstalled, 0},
		{"never uninstall a release that deployed once", revisions(sup, fail), Remedy{Uninstall: true}, RemedyNone, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := remedyFor(tc.history, tc.req)
			if got.Action != tc.want || got.Revision != tc.revision || got.Reason == "" {
				t.Fatalf("%+v; want %s to revision %d", got, tc.want, tc.revision)
			}
		})
	}
}
