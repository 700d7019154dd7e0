package chartrun_test

import (
	"context"
	"testing"

	"github.com/addon-actors/addon-operator/chartrun"
)

// A forced request (a reconcile asked on the Module object) upgrades an
// up-to-date release: a new revision with the same manifests; the request
// after it, not forced, skips again.
func TestForceUpgradesAnUpToDateRelease(t *testing.T) {
	f := newFixture(t, 1)
	f.upgrade(t, "a")
	res, err := f.r.Upgrade(context.Background(), chartrun.Request{Release: "demo", ChartDir: f.dir, Force: true,
		Values: map[string]any{"demo": map[string]any{"value": "a"}}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Action != chartrun.Upgraded || res.Revision != 2 || res.Reason != "reconcile requested" {
		t.Fatalf("forced upgrade of an up-to-date release: %+v, want upgraded to revision 2", res)
	}
	if res := f.upgrade(t, "a"); res.Action != chartrun.Skipped || res.Revision != 2 {
		t.Fatalf("the request after it: %+v, want skipped at revision 2", res)
	}
}
