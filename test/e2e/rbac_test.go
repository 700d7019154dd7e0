package e2e_test

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	authv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"sigs.k8s.io/yaml"

	"github.com/addon-actors/addon-operator/test/cluster"
)

// rbacCommand runs `addon-operator rbac` on the modules in root for the
// ServiceAccount sa of ns, with the cluster's discovery, and returns its
// stdout and exit code.
func rbacCommand(t *testing.T, root, ns, sa string, args ...string) (string, int) {
	t.Helper()
	argv := append([]string{"rbac", "--modules-dir", filepath.Join(root, "modules"), "--global-hooks-dir",
		filepath.Join(root, "global-hooks"), "--namespace", ns, "--service-account", sa,
		"-f", filepath.Join(root, "configmap.yaml"), "--kubeconfig", kube.Kubeconfig()}, args...)
	cmd := exec.Command(binary, argv...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		return string(out), exit.ExitCode()
	case err != nil:
		t.Fatalf("addon-operator rbac: %v\n%s", err, stderr.String())
	}
	return string(out), 0
}

// computedRBACValues is `addon-operator rbac -o values`'s rbac key, for the
// chart installed as release sa in ns.
func computedRBACValues(t *testing.T, root, ns, sa string) map[string]any {
	t.Helper()
	out, code := rbacCommand(t, root, ns, sa, "-o", "values")
	if code != 0 {
		t.Fatalf("addon-operator rbac -o values: exit %d\n%s", code, out)
	}
	var v struct {
		RBAC map[string]any `json:"rbac"`
	}
	if err := yaml.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("addon-operator rbac -o values: %v\n%s", err, out)
	}
	return v.RBAC
}

// applyRBAC creates the roles and bindings of `rbac -o json`, removing the
// cluster-scoped ones when the test ends.
func applyRBAC(t *testing.T, client kubernetes.Interface, out string) (*rbacv1.ClusterRole, []*rbacv1.Role) {
	t.Helper()
	var list struct {
		Items []map[string]any `json:"items"`
	}
	if err := yaml.Unmarshal([]byte(out), &list); err != nil {
		t.Fatalf("rbac -o json: %v\n%s", err, out)
	}
	ctx := context.Background()
	var cluster *rbacv1.ClusterRole
	var roles []*rbacv1.Role
	for _, item := range list.Items {
		body, _ := yaml.Marshal(item)
		var err error
		switch item["kind"] {
		case "ClusterRole":
			cluster = &rbacv1.ClusterRole{}
			if err = yaml.Unmarshal(body, cluster); err == nil {
				_, err = client.RbacV1().ClusterRoles().Create(ctx, cluster, metav1.CreateOptions{})
				t.Cleanup(func() { _ = client.RbacV1().ClusterRoles().Delete(ctx, cluster.Name, metav1.DeleteOptions{}) })
			}
		case "ClusterRoleBinding":
			b := &rbacv1.ClusterRoleBinding{}
			if err = yaml.Unmarshal(body, b); err == nil {
				_, err = client.RbacV1().ClusterRoleBindings().Create(ctx, b, metav1.CreateOptions{})
				t.Cleanup(func() { _ = client.RbacV1().ClusterRoleBindings().Delete(ctx, b.Name, metav1.DeleteOptions{}) })
			}
		case "Role":
			r := &rbacv1.Role{}
			if err = yaml.Unmarshal(body, r); err == nil {
				roles = append(roles, r)
				_, err = client.RbacV1().Roles(r.Namespace).Create(ctx, r, metav1.CreateOptions{})
			}
		case "RoleBinding":
			b := &rbacv1.RoleBinding{}
			if err = yaml.Unmarshal(body, b); err == nil {
				_, err = client.RbacV1().RoleBindings(b.Namespace).Create(ctx, b, metav1.CreateOptions{})
			}
		}
		if err != nil {
			t.Fatalf("apply %v: %v", item["kind"], err)
		}
	}
	return cluster, roles
}

// serviceAccountKubeconfig creates the ServiceAccount sa in ns and writes a
// kubeconfig with a token of it (TokenRequest).
func serviceAccountKubeconfig(t *testing.T, client kubernetes.Interface, ns, sa string) string {
	t.Helper()
	ctx := context.Background()
	if _, err := client.CoreV1().ServiceAccounts(ns).Create(ctx, &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: sa}},
		metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	expire := int64(3600)
	tr, err := client.CoreV1().ServiceAccounts(ns).CreateToken(ctx, sa,
		&authv1.TokenRequest{Spec: authv1.TokenRequestSpec{ExpirationSeconds: &expire}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("token for service account %s: %v", sa, err)
	}
	admin := kube.Config(t)
	ca := admin.CAData
	if len(ca) == 0 {
		if ca, err = os.ReadFile(admin.CAFile); err != nil {
			t.Fatal(err)
		}
	}
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters["c"] = &clientcmdapi.Cluster{Server: admin.Host, CertificateAuthorityData: ca}
	cfg.AuthInfos["sa"] = &clientcmdapi.AuthInfo{Token: tr.Status.Token}
	cfg.Contexts["sa"] = &clientcmdapi.Context{Cluster: "c", AuthInfo: "sa"}
	cfg.CurrentContext = "sa"
	path := filepath.Join(t.TempDir(), "kubeconfig")
	if err := clientcmd.WriteToFile(*cfg, path); err != nil {
		t.Fatal(err)
	}
	return path
}

var forbiddenSample = regexp.MustCompile(`(?m)^addon_operator_kube_forbidden_total\{([^}]*)\} (\S+)$`)

// forbiddenCounts are kube_forbidden_total's samples by their labels.
func forbiddenCounts(t *testing.T, op *operator) map[string]float64 {
	t.Helper()
	_, body := op.get(t, "/metrics")
	out := map[string]float64{}
	for _, m := range forbiddenSample.FindAllStringSubmatch(body, -1) {
		v, err := strconv.ParseFloat(m[2], 64)
		if err != nil {
			t.Fatalf("kube_forbidden_total{%s} %s: %v", m[1], m[2], err)
		}
		out[m[1]] = v
	}
	return out
}

// The examples converge with only `addon-operator rbac`'s rules bound to
// the operator's ServiceAccount (a TokenRequest token): nothing forbidden,
// and `rbac --diff` has nothing to add. With one verb taken from the Role,
// the module run that needs it fails naming the verb, the resource, the
// namespace and the rule to add (log and `module why`), counted in
// kube_forbidden_total, and `rbac --diff` prints that rule and exits 2.
func TestComputedRBACIsEnoughAndAMissingRuleIsNamed(t *testing.T) {
	root, ns := examples(t), kube.Namespace(t)
	client := applyExampleConfigMap(t, root, ns)
	kubeconfig := serviceAccountKubeconfig(t, client, ns, "ao")
	out, code := rbacCommand(t, root, ns, "ao", "-o", "json")
	if code != 0 {
		t.Fatalf("addon-operator rbac: exit %d\n%s", code, out)
	}
	cluster, roles := applyRBAC(t, client, out)
	if cluster == nil || len(roles) != 1 || roles[0].Namespace != ns {
		t.Fatalf("want a ClusterRole and a Role in %s:\n%s", ns, out)
	}
	if diff, code := rbacCommand(t, root, ns, "ao", "--diff"); code != 0 {
		t.Fatalf("rbac --diff right after applying: exit %d\n%s", code, diff)
	}

	op := startOperator(t, root, ns, "KUBE_CONFIG="+kubeconfig)
	op.waitReady(t)
	op.waitIdle(t)
	if got := forbiddenCounts(t, op); len(got) != 0 {
		t.Fatalf("kube_forbidden_total with the computed rules: %v\n%s", got, op.logText())
	}
	if got := configMap(t, client, ns, "greeter-published")["message"]; got != "hello from the ConfigMap" {
		t.Fatalf("greeter's object patch did not apply: %q\n%s", got, op.logText())
	}

	withoutPatchOnConfigMaps(t, client, roles[0])
	diff, code := rbacCommand(t, root, ns, "ao", "--diff")
	if code != 2 || !strings.Contains(diff, "configmaps") || !strings.Contains(diff, "- patch") {
		t.Fatalf("rbac --diff without the rule: exit %d, want 2 naming configmaps patch\n%s", code, diff)
	}
	editGreeterMessage(t, client, ns, "hello again")
	want := `forbidden: patch configmaps in namespace ` + ns + `; add the rule {apiGroups: [""], resources: ["configmaps"], verbs: ["patch"]}`
	op.waitLog(t, 60*time.Second, "an error naming the rule", func(recs []map[string]any) bool {
		return slices.ContainsFunc(recs, func(r map[string]any) bool { s, _ := r["err"].(string); return strings.Contains(s, want) })
	})
	row := regexp.MustCompile(`(?m)^\s+forbidden\s+` + regexp.QuoteMeta(strings.TrimPrefix(want, "forbidden: ")))
	if why := op.cli(t, "module", "why", "greeter"); !row.MatchString(why) {
		t.Fatalf("module why greeter does not name the refusal %q:\n%s", want, why)
	}
	key := `owner="greeter",resource="configmaps",verb="patch"`
	if got := forbiddenCounts(t, op); got[key] < 1 {
		t.Fatalf("kube_forbidden_total{%s} = %v, want >= 1 (all: %v)", key, got[key], got)
	}
}

// withComputedRBAC binds the rules `addon-operator rbac` computes for the
// modules in root to the ServiceAccount "ao" of ns, and returns a
// kubeconfig of it, the Roles and the command's output.
func withComputedRBAC(t *testing.T, client kubernetes.Interface, root, ns string) (string, []*rbacv1.Role, string) {
	t.Helper()
	kubeconfig := serviceAccountKubeconfig(t, client, ns, "ao")
	out, code := rbacCommand(t, root, ns, "ao", "-o", "json")
	if code != 0 {
		t.Fatalf("addon-operator rbac: exit %d\n%s", code, out)
	}
	_, roles := applyRBAC(t, client, out)
	return kubeconfig, roles, out
}

// withoutPatchOnConfigMaps takes the verb patch on configmaps out of the
// role (keeping everything else).
func withoutPatchOnConfigMaps(t *testing.T, client kubernetes.Interface, role *rbacv1.Role) {
	t.Helper()
	var rules []rbacv1.PolicyRule
	for _, r := range role.Rules {
		if !slices.Contains(r.Resources, "configmaps") {
			rules = append(rules, r)
			continue
		}
		others := slices.DeleteFunc(slices.Clone(r.Resources), func(s string) bool { return s == "configmaps" })
		if len(others) > 0 {
			rules = append(rules, rbacv1.PolicyRule{APIGroups: r.APIGroups, Resources: others, Verbs: r.Verbs})
		}
		verbs := slices.DeleteFunc(slices.Clone(r.Verbs), func(v string) bool { return v == "patch" })
		rules = append(rules, rbacv1.PolicyRule{APIGroups: r.APIGroups, Resources: []string{"configmaps"}, Verbs: verbs})
	}
	role.Rules = rules
	ctx := context.Background()
	current, err := client.RbacV1().Roles(role.Namespace).Get(ctx, role.Name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	current.Rules = rules
	if _, err := client.RbacV1().Roles(role.Namespace).Update(ctx, current, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// editGreeterMessage sets greeter's message in the ConfigMap addon-operator.
func editGreeterMessage(t *testing.T, client kubernetes.Interface, ns, message string) {
	t.Helper()
	ctx := context.Background()
	cm, err := client.CoreV1().ConfigMaps(ns).Get(ctx, "addon-operator", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cm.Data["greeter"] = "message: " + message + "\n"
	if _, err := client.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// A representative module set beyond the examples converges with only
// `addon-operator rbac`'s rules too: a release with objects in its own
// namespace and another (a Role in each), a kubernetes binding restricted
// to that other namespace, an object patch on a kind outside the release
// that module.yaml's `rbac:` declares, and a global hook watching the
// cluster-scoped Namespaces.
func TestComputedRBACCoversBindingsPatchesAndOtherNamespaces(t *testing.T) {
	ns, other := kube.Namespace(t), kube.Namespace(t)
	root := tree(t, map[string]string{
		"modules/values.yaml":        "webEnabled: true\n",
		"modules/010-web/Chart.yaml": "apiVersion: v2\nname: web\nversion: 0.1.0\n",
		"modules/010-web/templates/objects.yaml": "apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: web}\n---\n" +
			"apiVersion: v1\nkind: Secret\nmetadata: {name: web, namespace: " + other + "}\nstringData: {a: b}\n",
		"modules/010-web/module.yaml": "rbac:\n  - apiGroups: [coordination.k8s.io]\n    resources: [leases]\n" +
			"    verbs: [get, create, update]\n    namespaces: [" + other + "]\n",
		"modules/010-web/hooks/lock.sh": `#!/bin/sh
if [ "$1" = "--config" ]; then
  echo '{"configVersion":"v1","kubernetes":[{"name":"cms","apiVersion":"v1","kind":"ConfigMap","namespace":{"nameSelector":{"matchNames":["` + other + `"]}}}]}'
  exit 0
fi
cat > "$KUBERNETES_PATCH_PATH" <<YAML
operation: CreateOrUpdate
object:
  apiVersion: coordination.k8s.io/v1
  kind: Lease
  metadata: {name: web-lock, namespace: ` + other + `}
  spec: {holderIdentity: web}
YAML
`,
		"global-hooks/namespaces.sh": `#!/bin/sh
if [ "$1" = "--config" ]; then
  echo '{"configVersion":"v1","kubernetes":[{"name":"ns","apiVersion":"v1","kind":"Namespace","executeHookOnEvent":[]}]}'
fi
`,
		"configmap.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: addon-operator}\ndata: {}\n",
	})
	client := kube.Client(t)
	kubeconfig, roles, out := withComputedRBAC(t, client, root, ns)
	if len(roles) != 2 {
		t.Fatalf("want a Role in %s and in %s:\n%s", ns, other, out)
	}

	op := startOperator(t, root, ns, "KUBE_CONFIG="+kubeconfig)
	op.waitReady(t)
	op.waitIdle(t)
	if got := forbiddenCounts(t, op); len(got) != 0 {
		t.Fatalf("kube_forbidden_total with the computed rules: %v\n%s", got, op.logText())
	}
	ctx := context.Background()
	if _, err := client.CoordinationV1().Leases(other).Get(ctx, "web-lock", metav1.GetOptions{}); err != nil {
		t.Fatalf("the hook's object patch (module.yaml rbac) did not apply: %v\n%s", err, op.logText())
	}
	if _, err := client.CoreV1().Secrets(other).Get(ctx, "web", metav1.GetOptions{}); err != nil {
		t.Fatalf("the release's Secret in %s: %v\n%s", other, err, op.logText())
	}
}

// `addon-operator rbac`'s YAML (the default output) is what a user pipes
// to `kubectl apply -f -`: the test cluster's kubectl takes every document
// (checked by the apiserver, --dry-run=server, so no cluster-wide role
// outlives the test) and names each of them.
func TestRBACYAMLAppliesWithKubectl(t *testing.T) {
	root, ns := examples(t), kube.Namespace(t)
	out, code := rbacCommand(t, root, ns, "ao")
	if code != 0 {
		t.Fatalf("addon-operator rbac: exit %d\n%s", code, out)
	}
	bins, err := cluster.EnsureBinaries(context.Background(), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bins.Kubectl, "--kubeconfig", kube.Kubeconfig(), "apply", "--dry-run=server", "-f", "-")
	cmd.Stdin = strings.NewReader(out)
	applied, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("kubectl apply of rbac's output: %v\n%s\n--- the output:\n%s", err, applied, out)
	}
	for _, want := range []string{"clusterrole.rbac.authorization.k8s.io/" + ns + "-ao-modules",
		"clusterrolebinding.rbac.authorization.k8s.io/" + ns + "-ao-modules", "role.rbac.authorization.k8s.io/ao-modules",
		"rolebinding.rbac.authorization.k8s.io/ao-modules"} {
		if !strings.Contains(string(applied), want) {
			t.Errorf("kubectl apply did not take %s:\n%s", want, applied)
		}
	}
}
