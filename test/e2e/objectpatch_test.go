package e2e_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"

	"github.com/addon-actors/addon-operator/test/scenario"
)

// patcherHook writes one operation of each kind as YAML documents
// (UPSTREAM.md §1.9).
const patcherHook = `NS=$ADDON_OPERATOR_NAMESPACE
cm() { echo "{apiVersion: v1, kind: ConfigMap, metadata: {name: $1, namespace: $NS}, data: {v: $2}}"; }
cat > "$KUBERNETES_PATCH_PATH" <<EOF
operation: Create
object: $(cm created one)
---
operation: CreateIfNotExists
object: $(cm kept new)
---
operation: CreateOrUpdate
object: "$(cm updated new)"
---
{operation: Delete, kind: ConfigMap, namespace: $NS, name: to-delete}
---
{operation: DeleteInBackground, apiVersion: v1, kind: ConfigMap, namespace: $NS, name: bg}
---
{operation: DeleteNonCascading, kind: ConfigMap, namespace: $NS, name: orphan}
---
{operation: JQPatch, kind: ConfigMap, namespace: $NS, name: jq, jqFilter: '.data.v = (.data.v | tonumber + 1 | tostring)'}
---
{operation: MergePatch, kind: ConfigMap, namespace: $NS, name: merge, mergePatch: {data: {m: added}}}
---
operation: JSONPatch
kind: ConfigMap
namespace: $NS
name: jsonp
jsonPatch: '[{"op":"remove","path":"/data/v"}]'
---
operation: Create
object:
  apiVersion: apps/v1
  kind: Deployment
  metadata: {name: d, namespace: $NS}
  spec:
    replicas: 1
    selector: {matchLabels: {app: d}}
    template:
      metadata: {labels: {app: d}}
      spec: {containers: [{name: c, image: busybox}]}
---
{operation: MergePatch, apiVersion: apps/v1, kind: Deployment, namespace: $NS, name: d, subresource: status, mergePatch: {status: {observedGeneration: 4}}}
---
{operation: MergePatch, kind: ConfigMap, namespace: $NS, name: missing, mergePatch: {data: {a: b}}, ignoreMissingObject: true}
EOF`

// One module hook writes every operation; each result is checked in the
// cluster. A global hook naming a kind the apiserver does not serve fails
// (its error names the item) and is retried while the operator goes on;
// the operation after it is still applied. A hook that exits 1 has none
// of its object patches applied.
func TestObjectPatches(t *testing.T) {
	root, ns := t.TempDir(), kube.Namespace(t)
	client := kube.Client(t)
	for name, v := range map[string]string{"kept": "old", "updated": "old", "to-delete": "x", "bg": "x", "orphan": "x",
		"jq": "1", "merge": "x", "jsonp": "x", "after-unserved": "x"} {
		createCM(t, client, ns, name, v)
	}
	writeFiles(t, root, map[string]string{
		"modules/values.yaml":             "patcherEnabled: true\n",
		"modules/001-patcher/hooks/patch": hook(`{"configVersion":"v1","beforeHelm":1}`, patcherHook),
		"global-hooks/unserved": hook(`{"configVersion":"v1","schedule":[{"name":"tick","crontab":"* * * * * *","queue":"objpatch"}]}`,
			`cat > "$KUBERNETES_PATCH_PATH" <<EOF
{"operation":"MergePatch","apiVersion":"example.com/v1","kind":"Widget","namespace":"$ADDON_OPERATOR_NAMESPACE","name":"w","mergePatch":{"a":1}}
{"operation":"MergePatch","kind":"ConfigMap","namespace":"$ADDON_OPERATOR_NAMESPACE","name":"after-unserved","mergePatch":{"data":{"seen":"yes"}}}
EOF`),
		"global-hooks/fails": hook(`{"configVersion":"v1","schedule":[{"name":"tick","crontab":"* * * * * *","queue":"failing"}]}`,
			`echo '{"operation":"Create","object":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"never","namespace":"'$ADDON_OPERATOR_NAMESPACE'"}}}' > "$KUBERNETES_PATCH_PATH"
exit 1`),
	})
	released := releaseWhenDeleting(t, client, ns, "to-delete")
	op := startSpec(t, root, ns)
	op.waitReady(t)
	<-released
	checkPatched(t, client, ns)
	failed := waitFailure(t, op, "item 0 (MergePatch Widget "+ns+"/w): kind Widget of apiVersion example.com/v1 is not served")
	if e, _ := failed["err"].(string); !strings.Contains(e, "unserved") || !strings.Contains(e, "KUBERNETES_PATCH_PATH") {
		t.Errorf("failure %q: want the hook and the file named", e)
	}
	if cm := getCM(t, client, ns, "after-unserved"); cm == nil || cm.Data["seen"] != "yes" {
		t.Error("the operation after the unserved kind was not applied")
	}
	waitFailure(t, op, "global-hooks/fails")
	if getCM(t, client, ns, "never") != nil {
		t.Error("a failed hook's object patch was applied")
	}
	_, metrics := op.get(t, "/metrics")
	for _, want := range []string{`addon_operator_object_patch_operations_total{operation="Create",outcome="applied",owner="patcher"} 2`,
		`addon_operator_object_patch_operations_total{operation="MergePatch",outcome="failed",owner="global"}`} {
		if !strings.Contains(metrics, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
}

func checkPatched(t *testing.T, client kubernetes.Interface, ns string) {
	t.Helper()
	want := map[string]map[string]string{"created": {"v": "one"}, "kept": {"v": "old"}, "updated": {"v": "new"},
		"jq": {"v": "2"}, "merge": {"v": "x", "m": "added"}, "jsonp": nil}
	for name, data := range want {
		cm := getCM(t, client, ns, name)
		if cm == nil || len(cm.Data) != len(data) || !mapsEqual(cm.Data, data) {
			t.Errorf("configmap %s: %v, want data %v", name, cm, data)
		}
	}
	for _, gone := range []string{"to-delete", "bg"} {
		if getCM(t, client, ns, gone) != nil {
			t.Errorf("configmap %s is still there", gone)
		}
	}
	// No garbage collector runs in the test cluster to remove the orphan
	// finalizer: the object stays, being deleted.
	if cm := getCM(t, client, ns, "orphan"); cm != nil && cm.DeletionTimestamp == nil {
		t.Error("configmap orphan was not deleted")
	}
	d, err := client.AppsV1().Deployments(ns).Get(context.Background(), "d", metav1.GetOptions{})
	if err != nil || d.Status.ObservedGeneration != 4 {
		t.Errorf("deployment d: %v, status %+v, want observedGeneration 4", err, d.Status)
	}
}

func mapsEqual(a, b map[string]string) bool {
	for k, v := range b {
		if a[k] != v {
			return false
		}
	}
	return len(a) == len(b)
}

// releaseWhenDeleting removes the finalizers of configmap name once it is
// being deleted (the garbage collector's part in a Foreground delete; the
// test cluster runs none). The channel closes when it did.
func releaseWhenDeleting(t *testing.T, client kubernetes.Interface, ns, name string) <-chan struct{} {
	t.Helper()
	w, err := client.CoreV1().ConfigMaps(ns).Watch(context.Background(), metav1.ListOptions{FieldSelector: "metadata.name=" + name})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer w.Stop()
		timeout := time.After(60 * time.Second)
		for {
			select {
			case ev := <-w.ResultChan():
				if m, ok := ev.Object.(metav1.Object); ok && m.GetDeletionTimestamp() != nil {
					_, err := client.CoreV1().ConfigMaps(ns).Patch(context.Background(), name, types.MergePatchType,
						[]byte(`{"metadata":{"finalizers":null}}`), metav1.PatchOptions{})
					if err != nil {
						t.Errorf("release %s: %v", name, err)
					}
					return
				}
			case <-timeout:
				t.Errorf("configmap %s was never deleted", name)
				return
			}
		}
	}()
	return done
}

// waitFailure waits for a "task failed; retrying" record whose error
// contains text.
func waitFailure(t *testing.T, op *operator, text string) map[string]any {
	t.Helper()
	var found map[string]any
	op.waitLog(t, 60*time.Second, "a task failure with "+text, func(recs []map[string]any) bool {
		for _, rec := range recs {
			if e, _ := rec["err"].(string); rec["msg"] == "task failed; retrying" && strings.Contains(e, text) {
				found = rec
				return true
			}
		}
		return false
	})
	return found
}

func createCM(t *testing.T, client kubernetes.Interface, ns, name, v string) {
	t.Helper()
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name}, Data: map[string]string{"v": v}}
	if _, err := client.CoreV1().ConfigMaps(ns).Create(context.Background(), cm, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}

func getCM(t *testing.T, client kubernetes.Interface, ns, name string) *corev1.ConfigMap {
	t.Helper()
	cm, err := client.CoreV1().ConfigMaps(ns).Get(context.Background(), name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return cm
}

// UPSTREAM.md §1.8–1.9, what fails a run's object patches and what that
// costs the run: an operation that fails (Create of an existing object)
// fails the hook, which loses its values and config values patches but
// keeps its metrics (applied before object patches), and is retried, its
// patches all applied once the operation succeeds; an invalid item fails
// the whole file, so the valid item before it is not applied either; a
// hook that exits 1 has no patch applied, ignoreHookError or not.
func TestObjectPatchFailures(t *testing.T) {
	root, ns := t.TempDir(), kube.Namespace(t)
	client := kube.Client(t)
	createCM(t, client, ns, "blocker", "old")
	createCM(t, client, ns, "flagged", "old")
	tick := func(queue string) string {
		return `{"configVersion":"v1","schedule":[{"crontab":"* * * * * *","queue":"` + queue + `"}]}`
	}
	writeFiles(t, root, map[string]string{
		"modules/values.yaml": "global: {}\n",
		"global-hooks/blocked": hook(tick("blocked"), `echo '[{"op":"add","path":"/global/patched","value":"yes"}]' > $VALUES_JSON_PATCH_PATH
echo '[{"op":"add","path":"/global/configPatched","value":"yes"}]' > $CONFIG_VALUES_JSON_PATCH_PATH
echo '{"name":"objpatch_test_runs_total","action":"add","value":1}' > $METRICS_PATH
echo '{"operation":"Create","object":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"blocker","namespace":"'$ADDON_OPERATOR_NAMESPACE'"}}}' > $KUBERNETES_PATCH_PATH`),
		"global-hooks/invalid": hook(tick("invalid"), `cat > $KUBERNETES_PATCH_PATH <<EOF
{"operation":"Create","object":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"valid-first","namespace":"$ADDON_OPERATOR_NAMESPACE"}}}
{"operation":"Delete","kind":"ConfigMap","namespace":"$ADDON_OPERATOR_NAMESPACE"}
EOF`),
		"global-hooks/exits": hook(tick("exits"), `echo '{"operation":"MergePatch","kind":"ConfigMap","namespace":"'$ADDON_OPERATOR_NAMESPACE'","name":"flagged","mergePatch":{"data":{"v":"new"}},"ignoreHookError":true}' > $KUBERNETES_PATCH_PATH
exit 1`),
	})
	op := startSpec(t, root, ns)
	op.waitReady(t)

	waitFailure(t, op, "item 0 (Create ConfigMap "+ns+"/blocker): create: configmaps \"blocker\" already exists")
	if v := globalValues(t, op); v["patched"] != nil || v["configPatched"] != nil {
		t.Errorf("global values %v: a run whose object patch failed had its values patches applied", v)
	}
	if section := scenario.ConfigMapData(t, kube, ns, "addon-operator")["global"]; strings.Contains(section, "configPatched") {
		t.Errorf("ConfigMap section global %q: a run whose object patch failed wrote its config values patch", section)
	}
	if _, metrics := op.get(t, "/metrics/hooks"); !strings.Contains(metrics, "objpatch_test_runs_total") {
		t.Errorf("/metrics/hooks lacks the metric of the run whose object patch failed:\n%s", metrics)
	}
	waitFailure(t, op, `item 1: field "name" is required for Delete`)
	if getCM(t, client, ns, "valid-first") != nil {
		t.Error("the valid item before an invalid one was applied")
	}
	waitFailure(t, op, "global-hooks/exits")
	if cm := getCM(t, client, ns, "flagged"); cm.Data["v"] != "old" {
		t.Errorf("configmap flagged %v: the object patch of a hook that exited 1 was applied (ignoreHookError)", cm.Data)
	}

	if err := client.CoreV1().ConfigMaps(ns).Delete(context.Background(), "blocker", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the retried run's values and config values patches", func() bool {
		section := scenario.ConfigMapData(t, kube, ns, "addon-operator")["global"]
		return globalValues(t, op)["patched"] == "yes" && strings.Contains(section, "configPatched")
	})
}

// globalValues are the global values the running operator shows.
func globalValues(t *testing.T, op *operator) map[string]any {
	t.Helper()
	var shown struct{ Values map[string]any }
	if err := json.Unmarshal([]byte(op.cli(t, "module", "values", "--global", "-o", "json")), &shown); err != nil {
		t.Fatal(err)
	}
	return shown.Values
}
