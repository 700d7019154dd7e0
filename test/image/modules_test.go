package image_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/test/cluster"
	"github.com/addon-actors/addon-operator/test/image"
	"github.com/addon-actors/addon-operator/test/scenario"
)

// extraModules go into the modules image beside examples/: a global hook
// written with the shell library that calls kubectl; a module whose
// afterHelm hook reads its release's object with kubectl; and a module
// whose beforeHelm hook, while ConfigMap "slow" exists, records its pod in
// ConfigMap "slow-started" and sleeps (a converge to interrupt).
var extraModules = map[string]string{
	"global-hooks/100-shell-lib.sh": `#!/usr/bin/env bash
source /shell_lib.sh
__config__() { echo '{"configVersion":"v1","onStartup":1}'; }
__on_startup() {
  kubectl -n "$ADDON_OPERATOR_NAMESPACE" create configmap shell-lib-ran \
    --from-literal=binding="$(context::get binding)" --dry-run=client -o yaml | kubectl apply -f - >/dev/null
}
hook::run "$@"
`,
	"modules/010-kubectl-user/Chart.yaml":        "apiVersion: v2\nname: kubectl-user\nversion: 0.1.0\n",
	"modules/010-kubectl-user/templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: kubectl-user\ndata:\n  from: chart\n",
	"modules/010-kubectl-user/hooks/after.sh": `#!/usr/bin/env bash
set -euo pipefail
if [[ ${1:-} == --config ]]; then echo '{"configVersion":"v1","afterHelm":1}'; exit 0; fi
seen=$(kubectl -n "$ADDON_OPERATOR_NAMESPACE" get configmap kubectl-user -o jsonpath='{.data.from}')
kubectl -n "$ADDON_OPERATOR_NAMESPACE" create configmap kubectl-saw --from-literal=seen="$seen" \
  --dry-run=client -o yaml | kubectl apply -f - >/dev/null
`,
	"modules/020-slow/Chart.yaml":        "apiVersion: v2\nname: slow\nversion: 0.1.0\n",
	"modules/020-slow/templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: slow\n  labels: {from: chart}\n",
	"modules/020-slow/hooks/before.sh": `#!/usr/bin/env bash
set -euo pipefail
if [[ ${1:-} == --config ]]; then echo '{"configVersion":"v1","beforeHelm":1}'; exit 0; fi
ns=$ADDON_OPERATOR_NAMESPACE
if kubectl -n "$ns" get configmap slow-down >/dev/null 2>&1; then
  kubectl -n "$ns" create configmap slow-started --from-literal=pod="${ADDON_OPERATOR_POD:-}" \
    --dry-run=client -o yaml | kubectl apply -f - >/dev/null
  sleep 600
fi
`,
}

// extraEnabled switches the extra modules on beside the examples'.
const extraEnabled = "kubectlUserEnabled: true\nslowEnabled: true\n"

// buildModulesImage builds, FROM img as users do, an image holding
// examples/modules and examples/global-hooks plus extraModules, tagged tag
// (distinct tags make distinct images: the tag is also a label), and
// removes it after the test.
func buildModulesImage(ctx context.Context, t *testing.T, img image.Built, tag string) string {
	t.Helper()
	dir := t.TempDir()
	root := repoRoot(t)
	for _, sub := range []string{"modules", "global-hooks"} {
		if err := os.CopyFS(filepath.Join(dir, sub), os.DirFS(filepath.Join(root, "examples", sub))); err != nil {
			t.Fatal(err)
		}
	}
	files := map[string]string{"Dockerfile": fmt.Sprintf("FROM %s\nLABEL test.tag=%q\nCOPY modules /modules\nCOPY global-hooks /global-hooks\n", img.Ref, tag)}
	for name, content := range extraModules {
		files[name] = content
	}
	values, err := os.ReadFile(filepath.Join(dir, "modules", "values.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	files["modules/values.yaml"] = string(values) + extraEnabled
	// The image keeps the modes: hooks must be executable, the rest does
	// not mind.
	scenario.WriteTree(t, dir, files, 0o755)
	ref := "localhost/addon-operator-modules-test:" + tag
	if _, err := img.Podman.Output(ctx, "build", "--pull=never", "-t", ref, dir); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = img.Podman.Output(context.Background(), "rmi", "-f", ref) })
	return ref
}

// ensureImage builds the operator's image (or finds it cached) and
// returns it with the test's context for calls that use it: one that ends
// after limit or with the test.
func ensureImage(t *testing.T, limit time.Duration) (context.Context, image.Built) {
	t.Helper()
	ctx := cluster.TestContext(t, limit)
	img, err := image.Ensure(ctx, os.Stderr)
	if err != nil {
		t.Fatalf("build the operator's image: %v", err)
	}
	return ctx, img
}

// repoRoot is the repository holding this package.
func repoRoot(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(wd, "..", "..")
}

// imageTag makes a tag from the test's name.
func imageTag(t *testing.T, suffix string) string {
	return strings.ToLower(strings.NewReplacer("/", "-", "_", "-").Replace(t.Name())) + suffix
}
