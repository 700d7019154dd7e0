package e2e_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"

	"github.com/addon-actors/addon-operator/values/mask"
)

// driftModule is a module whose release holds a ConfigMap, a Deployment
// whose replicas another controller owns (marked with the ignore
// annotation) and a helm hook object; moduleYAML is its module.yaml.
func driftModule(moduleYAML string) map[string]string {
	files := map[string]string{
		"modules/values.yaml":           "driftyEnabled: true\n",
		"modules/001-drifty/Chart.yaml": "apiVersion: v2\nname: drifty\nversion: 0.1.0\n",
		"modules/001-drifty/templates/cm.yaml": `apiVersion: v1
kind: ConfigMap
metadata:
  name: drifty-cm
data:
  a: "1"
  b: "x"
`,
		"modules/001-drifty/templates/deploy.yaml": `apiVersion: apps/v1
kind: Deployment
metadata:
  name: drifty-web
  annotations:
    drift.addon-operator.io/ignore: spec.replicas
spec:
  replicas: 2
  selector:
    matchLabels: {app: drifty-web}
  template:
    metadata:
      labels: {app: drifty-web}
    spec:
      containers:
        - name: web
          image: localhost/testcluster/pause:v1
          resources:
            requests: {cpu: 0.1, memory: 16Mi}
`,
		"modules/001-drifty/templates/hook.yaml": `apiVersion: v1
kind: ConfigMap
metadata:
  name: drifty-hook
  annotations:
    helm.sh/hook: post-install,post-upgrade
data:
  h: "1"
`,
	}
	if moduleYAML != "" {
		files["modules/001-drifty/module.yaml"] = moduleYAML
	}
	return files
}

const driftedMsg = "release object drifted from its manifest"

// startDrift runs the drift module with moduleYAML, checking its release
// every 500ms, until its first converge is done and the queues are idle.
func startDrift(t *testing.T, moduleYAML string) (*operator, string, kubernetes.Interface) {
	t.Helper()
	ns := kube.Namespace(t)
	op := startSpec(t, tree(t, driftModule(moduleYAML)), ns, "ADDON_OPERATOR_RESOURCES_CHECK_INTERVAL=500ms")
	op.waitReady(t)
	op.waitIdle(t)
	return op, ns, kube.Client(t)
}

// In report mode (the default): a ConfigMap and a Deployment edited by hand
// are reported (WARN naming the fields, helm_drift_total, module why, plan
// exit 2 with rendered and live) and left as they are through later
// checks; the Deployment's replicas, which the chart marks as owned by
// others, and the helm hook object are never reported.
func TestDriftReportedAndLeftAlone(t *testing.T) {
	op, ns, client := startDrift(t, "")
	editByHand(t, client, ns)

	cm := op.waitRecord(t, driftedMsg, map[string]any{"object": "ConfigMap/" + ns + "/drifty-cm"})
	// A ConfigMap's data is shown by its masks (it may hold credentials).
	cmField := "data.a: " + mask.String("1") + " → " + mask.String("2") + " (live)"
	if got := fmt.Sprint(cm["fields"]); got != "["+cmField+"]" {
		t.Fatalf("ConfigMap drift fields %s", got)
	}
	web := op.waitRecord(t, driftedMsg, map[string]any{"object": "Deployment/" + ns + "/drifty-web"})
	if got := fmt.Sprint(web["fields"]); !strings.Contains(got, `spec.template.spec.containers[0].image: "localhost/testcluster/pause:v1" → "example.invalid/web:2" (live)`) ||
		strings.Contains(got, "replicas") {
		t.Fatalf("Deployment drift fields %s", got)
	}
	// The counts follow the log lines on the module's goroutine.
	op.waitMetrics(t, `addon_operator_helm_drift_total{kind="ConfigMap",module="drifty"} 1`,
		`addon_operator_helm_drift_total{kind="Deployment",module="drifty"} 1`, `addon_operator_helm_drifted_objects{module="drifty"} 2`)
	why := op.cli(t, "module", "why", "drifty")
	for _, want := range []string{"DRIFT", "ConfigMap/" + ns + "/drifty-cm since", cmField, "2 object(s) drifted"} {
		if !strings.Contains(why, want) {
			t.Fatalf("module why lacks %q:\n%s", want, why)
		}
	}
	out, err := runCLI(op.socket, "plan")
	if code := exitCode(err); code != 2 || !strings.Contains(out, "drifted ConfigMap/"+ns+"/drifty-cm") || !strings.Contains(out, cmField) {
		t.Fatalf("plan exit %d (want 2):\n%s", code, out)
	}

	op.waitChecks(t, 3)
	if got := cmData(t, client, ns, "drifty-cm")["a"]; got != "2" {
		t.Fatalf("report mode changed the ConfigMap: a=%q", got)
	}
	if n := op.count(driftedMsg, nil); n != 2 {
		t.Fatalf("%d drift reports, want 2 (one per object, not one per check)", n)
	}
	if strings.Contains(op.logText(), "drifty-hook") {
		t.Fatalf("the helm hook object was looked at:\n%s", grepLines(op.logText(), "drifty-hook"))
	}
}

// In restore mode (module.yaml's drift: restore over the default): the
// hand edits are put back within a check or two, the marked replicas are
// never touched, and a second writer that sets a field back after each
// restore wins after the restores: the operator gives up with an ERROR
// naming the field and the annotation, and restores it no more.
func TestDriftRestoredAndFightGivenUp(t *testing.T) {
	op, ns, client := startDrift(t, "drift: restore\n")
	edited := time.Now()
	editByHand(t, client, ns)
	waitFor(t, "the ConfigMap and the image restored", func() bool {
		return cmData(t, client, ns, "drifty-cm")["a"] == "1" && webImage(t, client, ns) == "localhost/testcluster/pause:v1"
	})
	t.Logf("restored %s after the edits (check interval 500ms)", time.Since(edited).Round(time.Millisecond))
	op.waitRecord(t, "drift restored to the manifest", map[string]any{"object": "ConfigMap/" + ns + "/drifty-cm"})
	op.waitChecks(t, 2)
	if r := webReplicas(t, client, ns); r != 5 {
		t.Fatalf("marked replicas touched: %d, set by hand to 5", r)
	}

	stop := fight(t, client, ns)
	rec := op.waitRecord(t, "drift restore given up: another writer sets the field back after each restore",
		map[string]any{"object": "ConfigMap/" + ns + "/drifty-cm", "field": "data.b"})
	if hint, _ := rec["hint"].(string); !strings.Contains(hint, "drift.addon-operator.io/ignore") {
		t.Fatalf("give-up record lacks the annotation hint: %v", rec)
	}
	stop()
	restores := op.count("drift restored to the manifest", map[string]any{"object": "ConfigMap/" + ns + "/drifty-cm"})
	op.waitChecks(t, 3)
	if got := cmData(t, client, ns, "drifty-cm")["b"]; got != "fight" {
		t.Fatalf("given-up field restored again: b=%q", got)
	}
	if n := op.count("drift restored to the manifest", map[string]any{"object": "ConfigMap/" + ns + "/drifty-cm"}); n != restores {
		t.Fatalf("%d restores after giving up", n-restores)
	}
	op.waitMetrics(t, `addon_operator_helm_drift_restores_total{kind="ConfigMap",module="drifty",outcome="given_up"} 1`)
}

// editByHand changes the ConfigMap's data.a, the Deployment's image and
// replicas, and the hook object, as `kubectl edit` would.
func editByHand(t *testing.T, client kubernetes.Interface, ns string) {
	t.Helper()
	ctx := context.Background()
	for name, data := range map[string]map[string]string{"drifty-cm": {"a": "2"}, "drifty-hook": {"h": "2"}} {
		cm, err := client.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range data {
			cm.Data[k] = v
		}
		if _, err := client.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	d, err := client.AppsV1().Deployments(ns).Get(ctx, "drifty-web", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	five := int32(5)
	d.Spec.Replicas, d.Spec.Template.Spec.Containers[0].Image = &five, "example.invalid/web:2"
	if _, err := client.AppsV1().Deployments(ns).Update(ctx, d, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// fight is a second writer: it sets drifty-cm's data.b to "fight" whenever
// it sees another value, until stop.
func fight(t *testing.T, client kubernetes.Interface, ns string) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	w, err := client.CoreV1().ConfigMaps(ns).Watch(ctx, metav1.ListOptions{FieldSelector: "metadata.name=drifty-cm"})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ev := range w.ResultChan() {
			cm, ok := ev.Object.(*corev1.ConfigMap)
			if !ok || ev.Type == watch.Deleted || cm.Data["b"] == "fight" {
				continue
			}
			cm.Data["b"] = "fight"
			_, _ = client.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}) // a conflict: the next event retries
		}
	}()
	return func() { cancel(); w.Stop(); <-done }
}

// waitMetrics waits until /metrics has every series line given.
func (op *operator) waitMetrics(t *testing.T, series ...string) {
	t.Helper()
	var body string
	ok := func() bool {
		_, body = op.get(t, "/metrics")
		for _, s := range series {
			if !strings.Contains(body, s) {
				return false
			}
		}
		return true
	}
	if !ok() {
		waitFor(t, fmt.Sprintf("metrics %q", series), ok)
	}
}

// waitChecks waits for n more periodic checks of module drifty.
func (op *operator) waitChecks(t *testing.T, n int) {
	t.Helper()
	from := op.releaseChecks(t)
	waitFor(t, fmt.Sprintf("%d release checks", n), func() bool { return op.releaseChecks(t) >= from+n })
}

func (op *operator) releaseChecks(t *testing.T) int {
	t.Helper()
	_, body := op.get(t, "/metrics")
	return int(seriesValue(body, `addon_operator_helm_release_checks_total{module="drifty"}`))
}

// seriesValue is the value of one series (name and labels as /metrics
// writes them) in a /metrics body; 0 when it is not there.
func seriesValue(body, series string) float64 {
	for line := range strings.SplitSeq(body, "\n") {
		if v, ok := strings.CutPrefix(line, series+" "); ok {
			f, _ := strconv.ParseFloat(v, 64)
			return f
		}
	}
	return 0
}

func cmData(t *testing.T, client kubernetes.Interface, ns, name string) map[string]string {
	t.Helper()
	cm, err := client.CoreV1().ConfigMaps(ns).Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return cm.Data
}

func webDeployment(t *testing.T, client kubernetes.Interface, ns string) *appsv1.Deployment {
	t.Helper()
	d, err := client.AppsV1().Deployments(ns).Get(context.Background(), "drifty-web", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func webImage(t *testing.T, client kubernetes.Interface, ns string) string {
	return webDeployment(t, client, ns).Spec.Template.Spec.Containers[0].Image
}

func webReplicas(t *testing.T, client kubernetes.Interface, ns string) int32 {
	return *webDeployment(t, client, ns).Spec.Replicas
}

// grepLines are the lines of text that contain s.
func grepLines(text, s string) string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		if strings.Contains(line, s) {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}

// In restore mode with RBAC that forbids patching ConfigMaps (the rules
// `addon-operator rbac` computes, less that verb, bound to the operator's
// ServiceAccount): a ConfigMap edited by hand is asked to be restored at
// every check, each restore fails, and each is told as failed with the
// refusal, counted outcome="failed", and never as "given up" (no other
// writer undid it).
func TestDriftRestoreForbiddenIsFailedNotGivenUp(t *testing.T) {
	files := driftModule("drift: restore\n")
	files["global-hooks/.keep"] = ""
	files["configmap.yaml"] = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: addon-operator\ndata: {}\n"
	root, ns, client := tree(t, files), kube.Namespace(t), kube.Client(t)
	kubeconfig, roles, out := withComputedRBAC(t, client, root, ns)
	if len(roles) != 1 {
		t.Fatalf("want one Role in %s:\n%s", ns, out)
	}
	withoutPatchOnConfigMaps(t, client, roles[0])
	op := startSpec(t, root, ns, "KUBE_CONFIG="+kubeconfig, "ADDON_OPERATOR_RESOURCES_CHECK_INTERVAL=500ms")
	op.waitReady(t)
	op.waitIdle(t)

	cm, err := client.CoreV1().ConfigMaps(ns).Get(context.Background(), "drifty-cm", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cm.Data["b"] = "by hand"
	if _, err := client.CoreV1().ConfigMaps(ns).Update(context.Background(), cm, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	object := map[string]any{"object": "ConfigMap/" + ns + "/drifty-cm"}
	op.waitLog(t, 60*time.Second, "more failed restores than a fight takes to give up", func(recs []map[string]any) bool {
		n := 0
		for _, rec := range recs {
			if matches(rec, "drift restore failed", object) {
				n++
			}
		}
		return n > driftMaxRestores
	})
	rec := op.waitRecord(t, "drift restore failed", object)
	if e, _ := rec["err"].(string); !strings.Contains(e, "forbidden") {
		t.Fatalf("failed restore without the refusal: %v", rec)
	}
	if n := op.count("drift restore given up: another writer sets the field back after each restore", nil); n != 0 {
		t.Fatalf("%d restores given up; they failed:\n%s", n, grepLines(op.logText(), "drift restore"))
	}
	if got := cmData(t, client, ns, "drifty-cm")["b"]; got != "by hand" {
		t.Fatalf("the ConfigMap was restored without the right to patch it: b=%q", got)
	}
	_, body := op.get(t, "/metrics") // counted after each record: all but the last are
	if v := seriesValue(body, `addon_operator_helm_drift_restores_total{kind="ConfigMap",module="drifty",outcome="failed"}`); v < driftMaxRestores ||
		strings.Contains(body, `outcome="given_up"`) {
		t.Fatalf("drift_restores_total: failed %v, want >= %d and no given_up:\n%s", v, driftMaxRestores, grepLines(body, "drift_restores"))
	}
}

// driftMaxRestores is the operator's: restores a field comes back from
// before it is given up.
const driftMaxRestores = 3
