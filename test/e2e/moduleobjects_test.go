package e2e_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	watchtools "k8s.io/client-go/tools/watch"

	"github.com/addon-actors/addon-operator/moduleobject"
	"github.com/addon-actors/addon-operator/test/cluster"
	"github.com/addon-actors/addon-operator/test/scenario"
)

// The Module objects (modules.addon-operator.io) through the built binary
// and kubectl. Module objects are cluster-scoped and the e2e operators
// share one cluster: these tests name their modules after their namespace
// (objectTag), so that no other operator has a module of the name.

// objectTag is a letters-only tag unique to the namespace ns (its
// generated suffix), for module names whose values keys stay plain.
func objectTag(ns string) string {
	suffix := ns[strings.LastIndexByte(ns, '-')+1:]
	var b strings.Builder
	for _, r := range suffix {
		if r >= '0' && r <= '9' {
			r = 'a' + (r - '0')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// objectModules is the tree of TestModuleObjectsThroughKubectl, for tag:
// ok-TAG converges (chart version 1.2.3); bad-TAG's beforeHelm fails until
// $RECORD_DIR/fixed exists; off-TAG is disabled by the ConfigMap; late-TAG
// requires bad-TAG (it waits for bad's run); slow-TAG waits for a
// Deployment that no node runs.
func objectModules(tag string) map[string]string {
	files := map[string]string{"modules/values.yaml": ""}
	for _, name := range []string{"ok", "bad", "off", "late", "slow"} {
		p := "modules/" + name + "-" + tag + "/"
		files[p+"Chart.yaml"] = "apiVersion: v2\nname: " + name + "-" + tag + "\nversion: 1.2.3\n"
		files[p+"templates/cm.yaml"] = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\ndata: {}\n"
		files["modules/values.yaml"] += name + strings.ToUpper(tag[:1]) + tag[1:] + "Enabled: true\n"
	}
	files["modules/bad-"+tag+"/hooks/before"] = hook(`{"configVersion":"v1","beforeHelm":1}`,
		`if [[ ! -e $RECORD_DIR/fixed ]]; then echo "bad is told to fail" >&2; exit 1; fi`)
	files["modules/late-"+tag+"/module.yaml"] = "requirements:\n" + requires("bad-"+tag, ">= 0.0.0")
	files["modules/slow-"+tag+"/module.yaml"] = "readiness:\n  wait: true\n  timeout: 10m\n"
	files["modules/slow-"+tag+"/templates/deploy.yaml"] = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .Release.Name }}
spec:
  selector: {matchLabels: {app: slow}}
  template:
    metadata: {labels: {app: slow}}
    spec:
      containers: [{name: c, image: registry.invalid/never:1}]
`
	return files
}

// TestModuleObjectsThroughKubectl: kubectl lists the modules with the
// printer columns; `kubectl wait --for=condition=Ready` returns for a
// converged module and times out for a failing one, which shows
// Ready=False, Retrying, its error, attempts and next retry; a disabled
// module names the layer; modules waiting for a requirement or for
// readiness say what they wait for; `kubectl events --for` shows the
// failed and the recovered run.
func TestModuleObjectsThroughKubectl(t *testing.T) {
	ns := kube.Namespace(t)
	tag := objectTag(ns)
	root := tree(t, objectModules(tag))
	scenario.PutConfigMap(t, kube, ns, map[string]string{"off" + strings.ToUpper(tag[:1]) + tag[1:] + "Enabled": "false"})
	if err := os.MkdirAll(filepath.Join(root, "record"), 0o755); err != nil {
		t.Fatal(err)
	}
	// slow-TAG's helm call waits for its Deployment until the grace is over
	startSpec(t, root, ns, "ADDON_OPERATOR_PARALLEL_MODULE_RUNS=4", "ADDON_OPERATOR_SHUTDOWN_GRACE=1s")
	ok, bad, off, late, slow := "ok-"+tag, "bad-"+tag, "off-"+tag, "late-"+tag, "slow-"+tag

	waitModule(t, ok, "Ready", phaseIs("Ready"))
	if out, err := kubectl("wait", "--for=condition=Ready", "module.addon-operator.io/"+ok, "--timeout=30s"); err != nil {
		t.Fatalf("kubectl wait for the converged %s: %v\n%s", ok, err, out)
	}
	failing := waitModule(t, bad, "Retrying", phaseIs("Retrying"))
	expectCondition(t, failing, "Ready", "False", "RunFailed")
	expectCondition(t, failing, "Reconciling", "True", "ProgressingWithRetry")
	st := failing.Object["status"].(map[string]any)
	if e := st["error"].(string); !strings.Contains(e, "exited with code 1") || strings.Contains(e, "told to fail") ||
		st["attempts"] == nil || st["nextRetry"] == nil {
		t.Fatalf("the failing module's status %v: want its error without the hook's stderr, attempts and nextRetry", st)
	}
	start := time.Now()
	if out, err := kubectl("wait", "--for=condition=Ready", "module.addon-operator.io/"+bad, "--timeout=5s"); err == nil {
		t.Fatalf("kubectl wait for the failing %s returned success:\n%s", bad, out)
	}
	t.Logf("kubectl wait for the failing module gave up after %v", time.Since(start).Round(100*time.Millisecond))

	disabled := waitModule(t, off, "Disabled", phaseIs("Disabled"))
	expectCondition(t, disabled, "Enabled", "False", "ConfigMap")
	expectMessage(t, disabled, "disabled by the ConfigMap")
	expectMessage(t, waitModule(t, late, "WaitingForRequirement", phaseIs("WaitingForRequirement")), "waiting for "+bad)
	waiting := waitModule(t, slow, "WaitingForReadiness", phaseIs("WaitingForReadiness"))
	expectMessage(t, waiting, "Deployment "+ns+"/"+slow)

	out, err := kubectl("get", "modules.addon-operator.io", "-l", "addon-operator.io/namespace="+ns)
	if err != nil {
		t.Fatalf("kubectl get modules: %v\n%s", err, out)
	}
	t.Logf("kubectl get modules.addon-operator.io:\n%s", out)
	if fields := strings.Fields(strings.SplitN(out, "\n", 2)[0]); strings.Join(fields, " ") != "NAME ENABLED PHASE READY VERSION MESSAGE AGE" {
		t.Fatalf("kubectl get modules: header %q, want NAME ENABLED PHASE READY VERSION MESSAGE AGE", fields)
	}
	for _, row := range [][]string{{ok, "True", "Ready", "True", "1.2.3"}, {bad, "True", "Retrying", "False"},
		{off, "False", "Disabled", "True"}, {late, "True", "WaitingForRequirement", "Unknown"}} {
		if !lineWith(out, row...) {
			t.Errorf("kubectl get modules: no row with %q", row)
		}
	}

	if err := os.WriteFile(filepath.Join(root, "record", "fixed"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	waitModule(t, bad, "Ready after the fix", phaseIs("Ready"))
	waitEvents(t, bad, "RunFailed", "Recovered")
}

// kubectl runs /usr/bin/kubectl on the test cluster.
func kubectl(args ...string) (string, error) {
	cmd := exec.Command("/usr/bin/kubectl", append([]string{"--kubeconfig", kube.Kubeconfig()}, args...)...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func moduleResource(t *testing.T) dynamic.NamespaceableResourceInterface {
	return moduleResourceOn(kube.Config(t))
}

func moduleResourceOn(cfg *rest.Config) dynamic.NamespaceableResourceInterface {
	return dynamic.NewForConfigOrDie(cfg).Resource(schema.GroupVersionResource{
		Group: moduleobject.Group, Version: moduleobject.Version, Resource: moduleobject.Resource})
}

func phaseIs(phase string) func(*unstructured.Unstructured) bool {
	return func(u *unstructured.Unstructured) bool {
		got, _, _ := unstructured.NestedString(u.Object, "status", "phase")
		return got == phase
	}
}

// waitModule watches Module object name until cond holds (60 s at most)
// and returns the object.
func waitModule(t *testing.T, name, what string, cond func(*unstructured.Unstructured) bool) *unstructured.Unstructured {
	t.Helper()
	return waitModuleOn(t, kube.Config(t), name, what, cond)
}

// waitModuleOn is waitModule on the cluster of cfg.
func waitModuleOn(t *testing.T, cfg *rest.Config, name, what string, cond func(*unstructured.Unstructured) bool) *unstructured.Unstructured {
	t.Helper()
	ctx, cancel := context.WithTimeout(cluster.TestContext(t, time.Minute), time.Minute)
	defer cancel()
	res, selector := moduleResourceOn(cfg), fields.OneTermEqualSelector("metadata.name", name).String()
	lw := &cache.ListWatch{
		ListFunc: func(o metav1.ListOptions) (runtime.Object, error) {
			o.FieldSelector = selector
			return res.List(ctx, o)
		},
		WatchFunc: func(o metav1.ListOptions) (watch.Interface, error) {
			o.FieldSelector = selector
			return res.Watch(ctx, o)
		},
	}
	var last *unstructured.Unstructured
	_, err := watchtools.UntilWithSync(ctx, lw, &unstructured.Unstructured{}, nil, func(ev watch.Event) (bool, error) {
		u, ok := ev.Object.(*unstructured.Unstructured)
		if ok {
			last = u
		}
		return ok && ev.Type != watch.Deleted && cond(u), nil
	})
	if err != nil {
		t.Fatalf("Module %s: not %s within a minute: %v; last seen %v", name, what, err, last)
	}
	return last
}

func expectCondition(t *testing.T, u *unstructured.Unstructured, typ, status, reason string) {
	t.Helper()
	conds, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	for _, c := range conds {
		m, _ := c.(map[string]any)
		if m["type"] == typ {
			if m["status"] != status || m["reason"] != reason {
				t.Fatalf("Module %s: condition %v, want %s %s %s", u.GetName(), m, typ, status, reason)
			}
			return
		}
	}
	t.Fatalf("Module %s: no condition %s in %v", u.GetName(), typ, conds)
}

func expectMessage(t *testing.T, u *unstructured.Unstructured, part string) {
	t.Helper()
	if msg, _, _ := unstructured.NestedString(u.Object, "status", "message"); !strings.Contains(msg, part) {
		t.Fatalf("Module %s: message %q, want it to say %q", u.GetName(), msg, part)
	}
}

// waitEvents waits until `kubectl events --for` the Module object shows
// every reason (the recorder writes its Events in the background).
func waitEvents(t *testing.T, name string, reasons ...string) {
	t.Helper()
	ctx := cluster.TestContext(t, time.Minute)
	events := kube.Client(t).EventsV1().Events("default")
	w, err := events.Watch(ctx, metav1.ListOptions{FieldSelector: "regarding.name=" + name})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	for {
		out, err := kubectl("events", "-n", "default", "--for", "module.addon-operator.io/"+name)
		if err == nil && allLines(out, reasons) {
			t.Logf("kubectl events --for module.addon-operator.io/%s:\n%s", name, out)
			return
		}
		select {
		case <-w.ResultChan():
		case <-ctx.Done():
			t.Fatalf("kubectl events --for module.addon-operator.io/%s: no %v within a minute: %v\n%s", name, reasons, err, out)
		}
	}
}

// allLines: text has a line with each of parts.
func allLines(text string, parts []string) bool {
	for _, p := range parts {
		if !lineWith(text, p) {
			return false
		}
	}
	return true
}
