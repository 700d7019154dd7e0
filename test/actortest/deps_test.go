package actortest_test

import (
	"os/exec"
	"strings"
	"testing"
)

// The kit is below the actor tree: the tests of supervision, chartrun and
// the other low layers import it, and must not compile actors/ or cmd/.
// Of this module, it imports supervision and its sub-packages only.
func TestKitIsBelowTheActorTree(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	const module = "github.com/addon-actors/addon-operator/"
	for _, pkg := range strings.Fields(string(out)) {
		rel, ours := strings.CutPrefix(pkg, module)
		if !ours || rel == "test/actortest" {
			continue
		}
		if rel != "supervision" && !strings.HasPrefix(rel, "supervision/") {
			t.Errorf("test/actortest depends on %s; want only supervision and its sub-packages", pkg)
		}
	}
}
