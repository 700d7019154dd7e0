package actortest

import (
	"os/exec"
	"strings"
)

// Deps are the import paths of every package the package in the test's
// directory compiles, itself included (go list -deps): what a test that
// keeps a package below others checks.
func Deps(t TB) []string {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	return strings.Fields(string(out))
}
