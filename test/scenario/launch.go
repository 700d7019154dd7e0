package scenario

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/addon-actors/addon-operator/test/cluster"
)

// operatorPackage is the operator's main package, which the e2e tests and
// the bench programs build and run.
const operatorPackage = "github.com/addon-actors/addon-operator/cmd/addon-operator"

// BuildOperator builds the operator binary into dst.
func BuildOperator(dst string) error {
	// deploy/Dockerfile's compile settings (no cgo, -trimpath), as make vet's:
	// the packages come from the build cache that those filled.
	cmd := exec.Command("go", "build", "-trimpath", "-o", dst, operatorPackage)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("build %s: %w\n%s", operatorPackage, err, out)
	}
	return nil
}

// OperatorBinary is bin when set, else the operator built into work.
func OperatorBinary(bin, work string) (string, error) {
	if bin != "" {
		return bin, nil
	}
	bin = filepath.Join(work, "addon-operator")
	return bin, BuildOperator(bin)
}

// FreePort is a TCP port that is free now, from test/cluster's allocator
// (below the ephemeral range, never the same twice in a row across
// processes): two ports taken by listens on :0 could be one port, and
// either could become a connection's source port before the operator
// binds it.
func FreePort() (int, error) {
	ports, err := cluster.FreePorts(1)
	if err != nil {
		return 0, err
	}
	return ports[0], nil
}

// Port is FreePort for a test, which it fails when there is none.
func Port(t testing.TB) int {
	t.Helper()
	port, err := FreePort()
	if err != nil {
		t.Fatal(err)
	}
	return port
}

// Launch is where a test or a bench runs the operator binary.
type Launch struct {
	Root       string // holds modules/ and global-hooks/
	Namespace  string
	Kubeconfig string
	Port       int // of its HTTP server on 127.0.0.1
	TmpDir     string
}

// Env makes Root's modules/ and global-hooks/ when missing (a dir that
// cannot be read is fatal to the operator; a scenario of global hooks alone
// has no modules) and returns os.Environ() with the operator's settings:
// those of l and JSON logs.
func (l Launch) Env() ([]string, error) {
	modules, globalHooks := filepath.Join(l.Root, "modules"), filepath.Join(l.Root, "global-hooks")
	for _, dir := range []string{modules, globalHooks} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("operator dirs: %w", err)
		}
	}
	return append(os.Environ(), "MODULES_DIR="+modules, "GLOBAL_HOOKS_DIR="+globalHooks,
		"ADDON_OPERATOR_NAMESPACE="+l.Namespace, "KUBE_CONFIG="+l.Kubeconfig, "LOG_TYPE=json",
		"ADDON_OPERATOR_LISTEN_ADDRESS=127.0.0.1", "ADDON_OPERATOR_LISTEN_PORT="+strconv.Itoa(l.Port),
		"ADDON_OPERATOR_TMP_DIR="+l.TmpDir), nil
}
