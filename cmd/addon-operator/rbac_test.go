package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/test/scenario"
)

// rbacTree writes a modules dir: a chart with a Deployment in its release's
// namespace and a Service in another, a real hook watching Pods in one
// namespace and Nodes, and module.yaml rules; and a global hook with a
// validating webhook.
func rbacTree(t *testing.T, moduleYAML string) (modules, globalHooks string) {
	t.Helper()
	root := scenario.TempTree(t, map[string]string{
		"modules/values.yaml":                       "webEnabled: true\n",
		"modules/010-web/Chart.yaml":                "apiVersion: v2\nname: web\nversion: 0.1.0\n",
		"modules/010-web/values.yaml":               "web:\n  replicas: 2\n",
		"modules/010-web/templates/deployment.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {replicas: {{ .Values.web.replicas }}}\n",
		"modules/010-web/templates/service.yaml":    "apiVersion: v1\nkind: Service\nmetadata: {name: web, namespace: shop}\n",
		"modules/010-web/module.yaml":               moduleYAML,
		"modules/020-off/Chart.yaml":                "apiVersion: v2\nname: off\nversion: 0.1.0\n",
		"modules/020-off/templates/secret.yaml":     "apiVersion: v1\nkind: Secret\nmetadata: {name: off}\n",
		"global-hooks/hook.sh":                      "#!/bin/sh\necho '{\"configVersion\":\"v1\",\"kubernetesValidating\":[{\"name\":\"v.example.com\",\"rules\":[{\"apiGroups\":[\"apps\"],\"apiVersions\":[\"v1\"],\"operations\":[\"CREATE\"],\"resources\":[\"deployments\"]}]}]}'\n",
		"modules/010-web/hooks/watch.sh": "#!/bin/sh\necho '{\"configVersion\":\"v1\",\"kubernetes\":[" +
			"{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"namespace\":{\"nameSelector\":{\"matchNames\":[\"shop\"]}}}," +
			"{\"apiVersion\":\"v1\",\"kind\":\"Node\"}]}'\n",
	}, 0o755)
	return filepath.Join(root, "modules"), filepath.Join(root, "global-hooks")
}

func runRBACCLI(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	lookup := func(string) (string, bool) { return "", false }
	code := rbacCLI(context.Background(), args, lookup, &stdout, &stderr)
	return stdout.String(), stderr.String(), code
}

const webRules = "rbac:\n  - apiGroups: [\"\"]\n    resources: [configmaps]\n    verbs: [patch]\n    namespaces: [kube-system]\n"

// Offline, the rules come from the built-in kinds: the enabled module's
// release objects, its hook's bindings, the global hook's webhook, the
// module.yaml rule and the operator's own; the disabled module's Secret
// adds nothing beyond the operator's own Secrets.
func TestRBACOffline(t *testing.T) {
	modules, global := rbacTree(t, webRules)
	out, stderr, code := runRBACCLI(t, "--modules-dir", modules, "--global-hooks-dir", global, "--namespace", "ops", "-o", "values")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"rules:\n  - apiGroups:\n    - \"\"\n    resources:\n    - nodes\n    verbs:\n    - get\n    - list\n    - watch\n",
		"    - validatingwebhookconfigurations\n",
		"  namespaceRules:\n    kube-system:\n    - apiGroups:\n      - \"\"\n      resources:\n      - configmaps\n      verbs:\n      - patch\n",
		"      - deployments\n",
		"    shop:\n    - apiGroups:\n      - \"\"\n      resources:\n      - pods\n      verbs:\n      - get\n      - list\n      - watch\n",
		"      - services\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// The YAML output, given back as --diff-file, leaves nothing to add (exit
// 0); without the module.yaml rule in it, that rule is printed (exit 2).
func TestRBACDiffFile(t *testing.T) {
	modules, global := rbacTree(t, webRules)
	args := []string{"--modules-dir", modules, "--global-hooks-dir", global, "--namespace", "ops"}
	full, _, code := runRBACCLI(t, args...)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	file := filepath.Join(t.TempDir(), "granted.yaml")
	if err := os.WriteFile(file, []byte(full), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, stderr, code := runRBACCLI(t, append(args, "--diff-file", file)...); code != rbacNothingMissing || out != "" {
		t.Fatalf("diff against its own output: exit %d\n%s%s", code, out, stderr)
	}
	modules2, global2 := rbacTree(t, "")
	narrow, _, _ := runRBACCLI(t, "--modules-dir", modules2, "--global-hooks-dir", global2, "--namespace", "ops")
	if err := os.WriteFile(file, []byte(narrow), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code := runRBACCLI(t, append(args, "--diff-file", file)...)
	if code != rbacMissing || !strings.Contains(out, "namespace: kube-system") || !strings.Contains(out, "- patch") ||
		strings.Contains(out, "deployments") {
		t.Fatalf("diff without the module.yaml rule: exit %d\n%s", code, out)
	}
}

// A bad module.yaml rule and an unknown kind offline are errors naming
// what to fix (exit 1).
func TestRBACErrors(t *testing.T) {
	modules, global := rbacTree(t, "rbac:\n  - apiGroups: [\"\"]\n    resources: [pods]\n    verbs: [get, remove]\n")
	_, stderr, code := runRBACCLI(t, "--modules-dir", modules, "--global-hooks-dir", global)
	want := filepath.Join(modules, "010-web", "module.yaml") + `: rbac[0].verbs[1]: unknown verb "remove"`
	if code != rbacError || !strings.Contains(stderr, want) {
		t.Fatalf("exit %d, stderr %q; want 1 naming %q", code, stderr, want)
	}
	modules, global = rbacTree(t, "")
	widget := "apiVersion: x.io/v1\nkind: Widget\nmetadata: {name: w}\n"
	if err := os.WriteFile(filepath.Join(modules, "010-web", "templates", "widget.yaml"), []byte(widget), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code = runRBACCLI(t, "--modules-dir", modules, "--global-hooks-dir", global)
	if code != rbacError || !strings.Contains(stderr, `module web: release object x.io/v1 Widget: unknown kind Widget in API group "x.io"`) {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
}
