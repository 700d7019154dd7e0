package e2e_test

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/addon-actors/addon-operator/test/cluster"
	"github.com/addon-actors/addon-operator/test/scenario"
)

var (
	kube   *cluster.Harness
	binary string
)

// TestMain builds the binary once (to a path of this checkout's own,
// replaced on every run: two checkouts tested at once on one machine must
// not run each other's binary) and runs the tests against the shared or a
// private cluster.
func TestMain(m *testing.M) {
	wd, _ := os.Getwd()
	sum := sha256.Sum256([]byte(wd))
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("addon-operator-e2e-%d-%x", os.Getuid(), sum[:6]))
	binary = filepath.Join(dir, "addon-operator")
	if err := scenario.BuildOperator(binary); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	cluster.Main(m, &kube)
}
