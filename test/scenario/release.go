package scenario

import (
	"testing"

	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/release"
)

// LastRelease is the release's last revision as helm stores it.
func LastRelease(t testing.TB, cfg *action.Configuration, name string) *release.Release {
	t.Helper()
	last, err := cfg.Releases.Last(name)
	if err != nil {
		t.Fatalf("last revision of %s: %v", name, err)
	}
	return last
}

// SetReleaseStatus rewrites the status of one revision of the release, as
// an operator killed during a helm action leaves it.
func SetReleaseStatus(t testing.TB, cfg *action.Configuration, name string, version int, status release.Status) {
	t.Helper()
	rel, err := cfg.Releases.Get(name, version)
	if err != nil {
		t.Fatal(err)
	}
	rel.Info.Status = status
	if err := cfg.Releases.Update(rel); err != nil {
		t.Fatal(err)
	}
}
