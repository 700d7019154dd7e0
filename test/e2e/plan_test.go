package e2e_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/addon-actors/addon-operator/test/scenario"
)

// planTree: web (a Deployment whose replicas come from its values, an
// OpenAPI schema with replicas >= 1), cache (an enabled script that says
// false when cache.stop is true), extra (enabled by modules/values.yaml),
// broken (its hook fails --config: left out by discovery, and by plan).
func planTree(t *testing.T) string {
	t.Helper()
	chart := func(name string) string { return "apiVersion: v2\nname: " + name + "\nversion: 0.1.0\n" }
	cm := func(name string) string {
		return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\ndata:\n  a: \"1\"\n"
	}
	return tree(t, map[string]string{
		"modules/values.yaml":                        "webEnabled: true\ncacheEnabled: true\nextraEnabled: true\nbrokenEnabled: true\n",
		"modules/010-web/Chart.yaml":                 chart("web"),
		"modules/010-web/values.yaml":                "web:\n  replicas: 1\n",
		"modules/010-web/openapi/config-values.yaml": "type: object\nproperties:\n  replicas:\n    type: integer\n    minimum: 1\n",
		"modules/010-web/templates/deploy.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n" +
			"  replicas: {{ .Values.web.replicas }}\n  selector:\n    matchLabels: {app: web}\n  template:\n" +
			"    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n      - name: web\n        image: nginx\n",
		"modules/020-cache/Chart.yaml":        chart("cache"),
		"modules/020-cache/templates/cm.yaml": cm("cache"),
		"modules/020-cache/enabled": "#!/bin/bash\nif [ \"$(jq -r '.cache.stop // false' \"$VALUES_PATH\")\" = true ]; then\n" +
			"  echo false > \"$MODULE_ENABLED_RESULT\"\nelse\n  echo true > \"$MODULE_ENABLED_RESULT\"\nfi\n",
		"modules/040-broken/hooks/h":          "#!/bin/bash\necho no config >&2\nexit 1\n",
		"modules/030-extra/Chart.yaml":        chart("extra"),
		"modules/030-extra/templates/cm.yaml": cm("extra"),
	})
}

// runPlan runs `addon-operator plan` and returns its output and exit code.
func runPlan(t *testing.T, op *operator, args ...string) (string, int) {
	t.Helper()
	out, err := runCLI(op.socket, append([]string{"plan"}, args...)...)
	var exit *exec.ExitError
	switch {
	case err == nil:
		return out, 0
	case errors.As(err, &exit):
		return out, exit.ExitCode()
	}
	t.Fatalf("plan %v: %v\n%s", args, err, out)
	return "", 0
}

// expectPlanChanges runs `addon-operator plan` with args and fails unless
// it exits 2 (there are changes) with each of want in its output.
func expectPlanChanges(t *testing.T, op *operator, want []string, args ...string) {
	t.Helper()
	out, code := runPlan(t, op, args...)
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q", w)
		}
	}
	if code != 2 || t.Failed() {
		t.Fatalf("exit %d, want 2:\n%s", code, out)
	}
}

func configMapVersion(t *testing.T, ns string) string {
	t.Helper()
	cm, err := kube.Client(t).CoreV1().ConfigMaps(ns).Get(context.Background(),
		"addon-operator", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return cm.ResourceVersion
}

// `addon-operator plan` answers what a configuration would do and changes
// nothing: no release revision and not the ConfigMap.
func TestPlan(t *testing.T) {
	root, ns := planTree(t), kube.Namespace(t)
	scenario.PutConfigMap(t, kube, ns, map[string]string{"web": "replicas: 1\n"})
	op := startSpec(t, root, ns)
	op.waitReady(t)
	op.waitIdle(t)
	op.expectEnabled(t, "cache", "extra", "web")
	revisions, version := releaseRevisions(t, ns), configMapVersion(t, ns)

	t.Run("live ConfigMap unchanged", func(t *testing.T) {
		out, code := runPlan(t, op)
		if code != 0 || !strings.Contains(out, "No changes.") || !strings.Contains(out, "hooks were not") {
			t.Fatalf("exit %d, want 0:\n%s", code, out)
		}
	})
	t.Run("replica count", func(t *testing.T) {
		expectPlanChanges(t, op, []string{"module web: run (release revision 1): values change, 1 changed",
			"changed Deployment/web", "-  replicas: 1", "+  replicas: 3"}, "--set", "web.replicas=3")
	})
	t.Run("module entering maintenance: its objects labelled", func(t *testing.T) {
		expectPlanChanges(t, op, []string{"in maintenance (webMaintenance): the release is written once more, its objects labelled",
			"changed Deployment/web", "+    maintenance.deckhouse.io/no-resource-reconciliation: \"\"", "+  replicas: 3"},
			"--set", "web.replicas=3", "--set", "webMaintenance=NoResourceReconciliation")
	})
	t.Run("schema broken", func(t *testing.T) {
		out, code := runPlan(t, op, "--set", "web.replicas=0")
		if code != 1 || !strings.Contains(out, "error: key web:") || !strings.Contains(out, "replicas") ||
			!strings.Contains(out, "Invalid configuration") {
			t.Fatalf("exit %d, want 1 naming key web and replicas:\n%s", code, out)
		}
	})
	t.Run("disable by flag and by enabled script", func(t *testing.T) { planDisables(t, op) })
	if got := releaseRevisions(t, ns); !reflect.DeepEqual(got, revisions) {
		t.Errorf("release revisions %v after plan, were %v", got, revisions)
	}
	if got := configMapVersion(t, ns); got != version {
		t.Errorf("ConfigMap resourceVersion %s after plan, was %s", got, version)
	}
	op.expectEnabled(t, "cache", "extra", "web")
}

// planDisables plans a ConfigMap that disables extra by its flag and cache
// by its enabled script: both listed, in text and JSON.
func planDisables(t *testing.T, op *operator) {
	file := filepath.Join(t.TempDir(), "cm.yaml")
	manifest := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: addon-operator\ndata:\n" +
		"  web: |\n    replicas: 1\n  extraEnabled: \"false\"\n  cache: |\n    stop: true\n"
	if err := os.WriteFile(file, []byte(manifest), 0o600); err != nil {
		t.Fatal(err)
	}
	expectPlanChanges(t, op, []string{"- disable cache: disabled by its enabled script",
		"- disable extra: disabled in ConfigMap key extraEnabled", "removed ConfigMap/extra", "Enabled modules: web\n"}, "-f", file)
	jsonOut, code := runPlan(t, op, "-f", file, "-o", "json")
	var plan struct {
		Disable []struct{ Module string }
		Enabled []string
	}
	if err := json.Unmarshal([]byte(jsonOut), &plan); err != nil || code != 2 {
		t.Fatalf("-o json: exit %d, %v:\n%s", code, err, jsonOut)
	}
	if len(plan.Disable) != 2 || plan.Disable[0].Module != "cache" || plan.Disable[1].Module != "extra" {
		t.Fatalf("disable %+v, want cache and extra", plan.Disable)
	}
}
