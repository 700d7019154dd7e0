package e2e_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/yaml"
)

// examples copies the repository's examples/ into a temp dir.
func examples(t *testing.T) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	src := filepath.Join(filepath.Dir(file), "..", "..", "examples")
	dst := t.TempDir()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	return dst
}

// applyExampleConfigMap creates examples/configmap.yaml in ns.
func applyExampleConfigMap(t *testing.T, root, ns string) kubernetes.Interface {
	t.Helper()
	cm := exampleConfigMap(t, root)
	cm.Namespace = ns
	client := kube.Client(t)
	if _, err := client.CoreV1().ConfigMaps(ns).Create(context.Background(), &cm, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	return client
}

// exampleConfigMap reads examples/configmap.yaml.
func exampleConfigMap(t *testing.T, root string) corev1.ConfigMap {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "configmap.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var cm corev1.ConfigMap
	if err := yaml.Unmarshal(data, &cm); err != nil {
		t.Fatal(err)
	}
	return cm
}

func configMap(t *testing.T, client kubernetes.Interface, ns, name string) map[string]string {
	t.Helper()
	cm, err := client.CoreV1().ConfigMaps(ns).Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("ConfigMap %s: %v", name, err)
	}
	return cm.Data
}

// The examples converge; the HTTP port shows readiness, an empty queue and
// the metrics; SIGTERM stops the process with exit code 0; a restart with
// nothing changed upgrades no release.
func TestExamplesConvergeStopAndRestartUnchanged(t *testing.T) {
	root, ns := examples(t), kube.Namespace(t)
	client := applyExampleConfigMap(t, root, ns)
	op := startOperator(t, root, ns)
	op.waitReady(t)
	op.waitIdle(t)

	if got := configMap(t, client, ns, "greeter")["message"]; got != "hello from the ConfigMap" {
		t.Fatalf("greeter message %q", got)
	}
	if got := configMap(t, client, ns, "echo-server")["computedBy"]; got != "hooks/compute.sh" {
		t.Fatalf("echo-server computedBy %q", got)
	}
	if got := configMap(t, client, ns, "addon-operator")["greeter"]; !strings.Contains(got, "greeted: true") {
		t.Fatalf("config patch not in the ConfigMap: %q", got)
	}
	checkGreeterObjectPatches(t, client, ns)
	if code, _ := op.get(t, "/readyz"); code != 200 {
		t.Fatalf("/readyz %d after the first converge", code)
	}
	_, metrics := op.get(t, "/metrics")
	for _, want := range []string{`addon_operator_actor_mailbox_length{actor="operator/module/greeter"}`,
		// The start-up's runs have activation OperatorStartup, as the
		// original labels them; greeter's second run (its afterHelm hook
		// changed its values) is part of the start-up too.
		`addon_operator_module_hook_run_seconds_count{activation="OperatorStartup",binding="beforeHelm",hook="hooks/compute.sh",module="echo-server",queue="main"} 1`,
		`addon_operator_global_hook_run_seconds_count{activation="OperatorStartup",binding="onStartup",hook="001-startup.sh",queue="main"} 1`,
		`addon_operator_global_hook_success_total{activation="OperatorStartup",binding="onStartup",hook="001-startup.sh",queue="main"} 1`,
		`addon_operator_global_hook_errors_total{activation="OperatorStartup",binding="onStartup",hook="001-startup.sh",queue="main"} 0`,
		`addon_operator_module_run_seconds_count{activation="OperatorStartup",module="greeter"} 2`,
		`addon_operator_module_helm_seconds_count{activation="OperatorStartup",module="optional"} 1`,
		`addon_operator_tasks_queue_length{queue="main"} 0`, `addon_operator_convergence_total{activation="OperatorStartup"} 1`,
		// Its crds/ were applied before its first run: Synchronization ran then.
		`addon_operator_module_hook_run_seconds_count{activation="OperatorStartup",binding="greetings",hook="hooks/count.sh",module="greetings",queue="main"} 1`} {
		if !strings.Contains(metrics, want) {
			t.Fatalf("/metrics lacks %s", want)
		}
	}
	if _, hookMetrics := op.get(t, "/metrics/hooks"); !strings.Contains(hookMetrics,
		"\n"+`echo_server_computations_total{by="compute",hook="hooks/compute.sh",module="echo-server"} 1`) {
		t.Fatalf("/metrics/hooks:\n%s", hookMetrics)
	}
	checkDebugCLI(t, op)
	op.stop(t)
	if code := op.cmd.ProcessState.ExitCode(); code != 0 {
		t.Fatalf("exit code %d after SIGTERM\n%s", code, op.logText())
	}

	again := startOperator(t, root, ns)
	start := time.Now()
	again.waitReady(t)
	t.Logf("restart with nothing changed: ready in %s", time.Since(start))
	if n := again.count("helm", map[string]any{"upgraded": true}); n != 0 {
		t.Fatalf("restart with nothing changed upgraded %d releases\n%s", n, again.logText())
	}
}

// Invalid configuration at start-up: the process exits non-zero and says
// why.
func TestInvalidConfigAtStartupExitsNonZero(t *testing.T) {
	root, ns := examples(t), kube.Namespace(t)
	client := kube.Client(t)
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "addon-operator"},
		Data: map[string]string{"greeter": "message: \"\"\n"}}
	if _, err := client.CoreV1().ConfigMaps(ns).Create(context.Background(), cm, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	op := startOperator(t, root, ns)
	if code := op.waitExit(t, 60*time.Second); code == 0 {
		t.Fatalf("exit code 0 with an invalid config\n%s", op.logText())
	}
	if !strings.Contains(op.logText(), "minLength") {
		t.Fatalf("the error does not say what is wrong\n%s", op.logText())
	}
}

// checkDebugCLI reads the running operator through the debug socket.
func checkDebugCLI(t *testing.T, op *operator) {
	t.Helper()
	if out := op.cli(t, "module", "list"); !strings.Contains(out, "greeter") || !strings.Contains(out, "ENABLED") {
		t.Fatalf("module list:\n%s", out)
	}
	if out := op.cli(t, "module", "values", "greeter", "-o", "json"); !strings.Contains(out, `"message": "hello from the ConfigMap"`) {
		t.Fatalf("module values greeter:\n%s", out)
	}
	if out := op.cli(t, "module", "values", "--global"); !strings.Contains(out, "clusterDomain: cluster.local") ||
		!strings.Contains(out, "enabledModules") {
		t.Fatalf("module values --global:\n%s", out)
	}
	if out := op.cli(t, "module", "render", "echo-server"); !strings.Contains(out, `computedBy: "hooks/compute.sh"`) {
		t.Fatalf("module render:\n%s", out)
	}
	if out := op.cli(t, "queue", "list"); !strings.Contains(out, "Queue 'main': length 0") {
		t.Fatalf("queue list:\n%s", out)
	}
	if out := op.cli(t, "actors"); !strings.Contains(out, "operator/module/greeter") || !strings.Contains(out, "MAILBOX") {
		t.Fatalf("actors:\n%s", out)
	}
	info, err := os.Stat(op.socket)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("debug socket mode: %v %v", info.Mode(), err)
	}
}

// checkGreeterObjectPatches checks what greeter's hooks/publish.sh wrote to
// $KUBERNETES_PATCH_PATH: a label on the chart's ConfigMap and a ConfigMap
// of its own.
func checkGreeterObjectPatches(t *testing.T, client kubernetes.Interface, ns string) {
	t.Helper()
	if got := configMap(t, client, ns, "greeter-published")["message"]; got != "hello from the ConfigMap" {
		t.Fatalf("greeter-published message %q", got)
	}
	cm, err := client.CoreV1().ConfigMaps(ns).Get(context.Background(), "greeter", metav1.GetOptions{})
	if err != nil || cm.Labels["greeter.example.com/published"] != "true" {
		t.Fatalf("greeter ConfigMap: %v, labels %v: want the label of the MergePatch", err, cm.Labels)
	}
}
