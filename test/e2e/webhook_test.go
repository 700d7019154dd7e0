package e2e_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/addon-actors/addon-operator/test/cluster"
)

// The module guard serves the webhooks of the scenarios: a validating
// hook (validate) answering by the ConfigMap's name, a mutating hook
// (mutate) adding a label, and a conversion chain v1 → v2 → v3 of its own
// CRD across two hooks (convert-a, convert-b).

// guardValidating: policy answers ConfigMaps labelled webhook-e2e=yes
// (timeout 10s), slow those labelled webhook-e2e=slow (timeout 2s).
func guardValidating(ns string) string {
	binding := func(name, label string, timeout int) string {
		return `{"name":"` + name + `",` + inNamespace(ns) + `,"labelSelector":{"matchLabels":{"webhook-e2e":"` + label + `"}},` +
			`"rules":[{"apiGroups":[""],"apiVersions":["v1"],"operations":["CREATE"],"resources":["configmaps"],"scope":"Namespaced"}],` +
			`"timeoutSeconds":` + strconv.Itoa(timeout) + `}`
	}
	return `{"configVersion":"v1","kubernetesValidating":[` + binding("policy.guard.example.com", "yes", 10) + `,` +
		binding("slow.guard.example.com", "slow", 2) + `]}`
}

// validateBody answers by the name's prefix: deny-, bad- (not JSON),
// hang- (never answers), conc- (counts the runs at once with a counter
// under flock), anything else is allowed with a warning.
const validateBody = `mkdir -p "$RECORD_DIR"
name=$(jq -r '.[0].review.request.object.metadata.name' "$BINDING_CONTEXT_PATH")
respond() { echo "$1" > "$VALIDATING_RESPONSE_PATH"; }
count() {
  ( flock 9
    n=$(( $(cat "$RECORD_DIR/conc.n" 2>/dev/null || echo 0) + $1 ))
    echo $n > "$RECORD_DIR/conc.n"
    echo $n >> "$RECORD_DIR/conc.seen"
  ) 9>"$RECORD_DIR/conc.lock"
}
case $name in
deny-*) respond '{"allowed":false,"message":"denied by the guard: '"$name"'"}' ;;
bad-*) respond 'not json' ;;
hang-*) echo $$ > "$RECORD_DIR/hang.pid"; sleep 120 & echo $! > "$RECORD_DIR/hang-child.pid"; wait ;;
conc-*) count 1; sleep 0.2; count -1; respond '{"allowed":true}' ;;
*) respond '{"allowed":true,"warnings":["seen by the guard"]}' ;;
esac`

func guardMutating(ns string) string {
	return `{"configVersion":"v1","kubernetesMutating":[{"name":"labels.guard.example.com",` + inNamespace(ns) + `,` +
		`"labelSelector":{"matchLabels":{"webhook-e2e":"yes"}},` +
		`"rules":[{"apiGroups":[""],"apiVersions":["v1"],"operations":["CREATE"],"resources":["configmaps"],"scope":"Namespaced"}]}]}`
}

const mutateBody = `patch=$(echo '[{"op":"add","path":"/metadata/labels/mutated","value":"yes"}]' | base64 -w 0)
echo '{"allowed":true,"patch":"'"$patch"'"}' > "$VALIDATING_RESPONSE_PATH"`

func guardConversion(crd, name, a, b string) string {
	return `{"configVersion":"v1","kubernetesCustomResourceConversion":[{"name":"` + name + `","crdName":"` + crd + `",` +
		`"conversions":[{"fromVersion":"` + a + `","toVersion":"` + b + `"},{"fromVersion":"` + b + `","toVersion":"` + a + `"}]}]}`
}

// convertBody relabels each object to the step's version and appends the
// step to spec.path.
const convertBody = `jq -c --arg group "$GROUP" '.[0] as $c | ($c.fromVersion|split("/")|last) as $f | ($c.toVersion|split("/")|last) as $t
| {convertedObjects: [$c.review.request.objects[] | .apiVersion = ($group + "/" + $t) | .spec.path = ((.spec.path // "") + $f + ">" + $t + ";")]}' \
  "$BINDING_CONTEXT_PATH" > "$CONVERSION_RESPONSE_PATH"`

const crontabCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.GROUP
spec:
  group: GROUP
  scope: Namespaced
  names: {plural: crontabs, singular: crontab, kind: CronTab}
  versions:
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}
  - {name: v2, served: true, storage: false, schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}
  - {name: v3, served: true, storage: false, schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}
`

// guardSnap: a kubernetes binding on ConfigMaps labelled
// webhook-e2e=marker (their names), and a validating binding including its
// snapshot, on ConfigMaps labelled webhook-e2e=snap.
func guardSnap(ns string) string {
	return `{"configVersion":"v1","kubernetes":[{"name":"markers","apiVersion":"v1","kind":"ConfigMap",` +
		`"namespace":{"nameSelector":{"matchNames":["` + ns + `"]}},"labelSelector":{"matchLabels":{"webhook-e2e":"marker"}},` +
		`"jqFilter":".metadata.name"}],"kubernetesValidating":[{"name":"snap.guard.example.com",` + inNamespace(ns) + `,` +
		`"includeSnapshotsFrom":["markers"],"labelSelector":{"matchLabels":{"webhook-e2e":"snap"}},` +
		`"rules":[{"apiGroups":[""],"apiVersions":["v1"],"operations":["CREATE"],"resources":["configmaps"],"scope":"Namespaced"}]}]}`
}

// snapBody allows X only while a ConfigMap marker-X is in the snapshot.
const snapBody = `[[ $(jq -r '.[0].type' "$BINDING_CONTEXT_PATH") == Validating ]] || exit 0
name=$(jq -r '.[0].review.request.object.metadata.name' "$BINDING_CONTEXT_PATH")
if jq -e --arg m "marker-$name" '[.[0].snapshots.markers[].filterResult] | index($m)' "$BINDING_CONTEXT_PATH" >/dev/null; then
  echo '{"allowed":true}' > "$VALIDATING_RESPONSE_PATH"
else
  echo '{"allowed":false,"message":"no marker for '"$name"'"}' > "$VALIDATING_RESPONSE_PATH"
fi`

// guardTree is the module guard, enabled, with its CRD of group.
func guardTree(t *testing.T, ns, group string) string {
	crd := "crontabs." + group
	return tree(t, map[string]string{
		"modules/values.yaml":                  "guardEnabled: true\n",
		"modules/001-guard/crds/crontabs.yaml": strings.ReplaceAll(crontabCRD, "GROUP", group),
		"modules/001-guard/hooks/validate":     hook(guardValidating(ns), validateBody),
		"modules/001-guard/hooks/mutate":       hook(guardMutating(ns), mutateBody),
		"modules/001-guard/hooks/snap":         hook(guardSnap(ns), snapBody),
		"modules/001-guard/hooks/convert-a":    hook(guardConversion(crd, "v1-v2", "v1", "v2"), convertBody),
		"modules/001-guard/hooks/convert-b":    hook(guardConversion(crd, "v2-v3", group+"/v2", group+"/v3"), convertBody),
	})
}

// warnings collects the apiserver's warnings of a client.
type warnings struct {
	mu   sync.Mutex
	list []string
}

func (w *warnings) HandleWarningHeader(_ int, _ string, message string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.list = append(w.list, message)
}

func (w *warnings) has(s string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, m := range w.list {
		if strings.Contains(m, s) {
			return true
		}
	}
	return false
}

func labelled(name, label string) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"webhook-e2e": label}}}
}

// startGuard runs the operator on the guard module and waits until its
// webhooks answer (a ConfigMap named deny-probe is denied).
func startGuard(t *testing.T, env ...string) (op *operator, root, ns, group string, client kubernetes.Interface, warned *warnings) {
	t.Helper()
	ns = kube.Namespace(t)
	group = ns + ".guard.example.com"
	root = guardTree(t, ns, group)
	cfg := rest.CopyConfig(kube.Config(t))
	warned = &warnings{}
	cfg.WarningHandler = warned
	client = kubernetes.NewForConfigOrDie(cfg)
	deleteCRDAtEnd(t, "crontabs."+group)
	env = append(webhookEnv(t, ns, "guard"), append([]string{"GROUP=" + group}, env...)...)
	op = startSpec(t, root, ns, env...)
	op.waitReady(t)
	waitDenied(t, client, ns, "deny-probe")
	return op, root, ns, group, client, warned
}

// waitDenied creates name (label yes) until the guard denies it: the
// apiserver takes up a new configuration within a second or so.
func waitDenied(t *testing.T, client kubernetes.Interface, ns, name string) {
	t.Helper()
	cms := client.CoreV1().ConfigMaps(ns)
	retryUntil(t, "the guard denies "+name, func() error {
		_, err := cms.Create(context.Background(), labelled(name, "yes"), metav1.CreateOptions{})
		if err == nil {
			_ = cms.Delete(context.Background(), name, metav1.DeleteOptions{})
			return fmt.Errorf("%s allowed", name)
		}
		return errorHas(err, "denied by the guard: "+name)
	})
}

// A validating hook denies a ConfigMap with its message and allows
// another with its warning; the mutating hook's patch is applied; a bad
// response file is shell-operator's "Hook failed".
func TestWebhookAdmission(t *testing.T) {
	op, _, ns, _, client, warned := startGuard(t)
	defer checkWebhookMetrics(t, op)
	cms := client.CoreV1().ConfigMaps(ns)
	ctx := context.Background()
	_, err := cms.Create(ctx, labelled("deny-one", "yes"), metav1.CreateOptions{})
	if err := errorHas(err, "denied by the guard: deny-one"); err != nil {
		t.Fatal(err)
	}
	created, err := cms.Create(ctx, labelled("allow-one", "yes"), metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("allow-one: %v\n%s", err, op.logText())
	}
	if !warned.has("seen by the guard") {
		t.Errorf("warnings %v, want the guard's", warned.list)
	}
	if created.Labels["mutated"] != "yes" {
		t.Errorf("labels %v: the mutating hook's patch is not applied", created.Labels)
	}
	_, err = cms.Create(ctx, labelled("bad-one", "yes"), metav1.CreateOptions{})
	if err := errorHas(err, "Hook failed"); err != nil {
		t.Fatal(err)
	}
	if _, err := cms.Create(ctx, labelled("other", "no"), metav1.CreateOptions{}); err != nil {
		t.Fatalf("a ConfigMap no binding selects: %v", err)
	}
	checkKubectlSees(t, ns)
}

// checkKubectlSees: a user's kubectl shows the guard's denial message and
// its warning.
func checkKubectlSees(t *testing.T, ns string) {
	t.Helper()
	out, err := kubectlApply(t, ns, "deny-kubectl")
	if err == nil || !strings.Contains(out, "denied by the guard: deny-kubectl") {
		t.Errorf("kubectl apply deny-kubectl: %v\n%s\nwant the denial with the guard's message", err, out)
	}
	out, err = kubectlApply(t, ns, "allow-kubectl")
	if err != nil || !strings.Contains(out, "Warning: seen by the guard") {
		t.Errorf("kubectl apply allow-kubectl: %v\n%s\nwant it created with the guard's warning", err, out)
	}
}

// kubectlApply applies a ConfigMap named name labelled for the guard with
// the test cluster's kubectl, and returns what kubectl printed.
func kubectlApply(t *testing.T, ns, name string) (string, error) {
	t.Helper()
	bins, err := cluster.EnsureBinaries(context.Background(), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	manifest := fmt.Sprintf("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: %s\n  labels: {webhook-e2e: \"yes\"}\n", name)
	cmd := exec.Command(bins.Kubectl, "--kubeconfig", kube.Kubeconfig(), "--namespace", ns, "apply", "-f", "-")
	cmd.Stdin = strings.NewReader(manifest)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// A hook with a kubernetes binding answers with its snapshot as
// published when its run starts: X is allowed once marker-X is there.
func TestWebhookSeesSnapshots(t *testing.T) {
	op, _, ns, _, client, _ := startGuard(t)
	cms := client.CoreV1().ConfigMaps(ns)
	ctx := context.Background()
	_, err := cms.Create(ctx, labelled("x", "snap"), metav1.CreateOptions{})
	if err := errorHas(err, "no marker for x"); err != nil {
		t.Fatalf("%v\n%s", err, op.logText())
	}
	if _, err := cms.Create(ctx, labelled("marker-x", "marker"), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	retryUntil(t, "x allowed once marker-x is in the snapshot", func() error {
		_, err := cms.Create(ctx, labelled("x", "snap"), metav1.CreateOptions{})
		return err
	})
}

// checkWebhookMetrics: the runs count in the hook metrics with
// queue="webhook", the reviews in the webhook server's.
func checkWebhookMetrics(t *testing.T, op *operator) {
	t.Helper()
	_, body := op.get(t, "/metrics")
	for _, want := range []string{
		`addon_operator_module_hook_run_seconds_count{activation="",binding="policy.guard.example.com",hook="hooks/validate",module="guard",queue="webhook"}`,
		`addon_operator_webhook_requests_total{binding="policy.guard.example.com",kind="validating",owner="guard"}`,
		`addon_operator_webhook_denials_total{binding="policy.guard.example.com",kind="validating",owner="guard"}`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics has no %s", want)
		}
	}
}

// A hook still running at its binding's timeoutSeconds is killed, its
// child too, and the request fails.
func TestWebhookHookPastItsTimeoutIsKilled(t *testing.T) {
	op, root, ns, _, client, _ := startGuard(t)
	_, err := client.CoreV1().ConfigMaps(ns).Create(context.Background(), labelled("hang-one", "slow"), metav1.CreateOptions{})
	if err == nil {
		t.Fatal("hang-one created, want the failure of its webhook")
	}
	rec := op.waitRecord(t, "webhook denied", map[string]any{"binding": "slow.guard.example.com"})
	t.Logf("the operator's reply: %v", rec["message"])
	for _, file := range []string{"hang.pid", "hang-child.pid"} {
		pid := strings.TrimSpace(record(t, root, file))
		retryUntil(t, "process "+file+" gone", func() error { return gone(pid) })
	}
}

// gone is nil when the process pid has ended (a zombie has ended too).
func gone(pid string) error {
	stat, err := os.ReadFile(filepath.Join("/proc", pid, "stat"))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:])); len(fields) > 0 && fields[0] == "Z" {
		return nil
	}
	return fmt.Errorf("process %s still running", pid)
}

// 50 admission requests at once, 4 runs of a hook at most: all are
// answered, and the hook never ran more than 4 times at once.
func TestWebhookConcurrency(t *testing.T) {
	_, root, ns, _, client, _ := startGuard(t, "ADDON_OPERATOR_WEBHOOK_CONCURRENCY=4")
	cms := client.CoreV1().ConfigMaps(ns)
	errs := make(chan error, 50)
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := cms.Create(context.Background(), labelled(fmt.Sprintf("conc-%d", i), "yes"), metav1.CreateOptions{})
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	most, seen := 0, strings.Fields(record(t, root, "conc.seen"))
	for _, s := range seen {
		n, _ := strconv.Atoi(s)
		most = max(most, n)
	}
	t.Logf("at most %d runs at once (%d counts)", most, len(seen))
	if most > 4 || len(seen) != 100 {
		t.Fatalf("at most %d runs at once, %d counts; want at most 4, and 100 counts", most, len(seen))
	}
}
