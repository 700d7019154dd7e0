package actortest_test

import (
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/test/actortest"
)

// The kit is below the actor tree: the tests of supervision, chartrun and
// the other low layers import it, and must not compile actors/ or cmd/.
// Of this module, it imports supervision and its sub-packages only.
func TestKitIsBelowTheActorTree(t *testing.T) {
	const module = "github.com/addon-actors/addon-operator/"
	for _, pkg := range actortest.Deps(t) {
		rel, ours := strings.CutPrefix(pkg, module)
		if !ours || rel == "test/actortest" {
			continue
		}
		if rel != "supervision" && !strings.HasPrefix(rel, "supervision/") {
			t.Errorf("test/actortest depends on %s; want only supervision and its sub-packages", pkg)
		}
	}
}
