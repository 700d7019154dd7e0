package e2e_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// SIGTERM while a hook runs long: the process exits within the grace
// period with code 0, and no process of the hook is left.
func TestSigtermDuringALongHook(t *testing.T) {
	root := t.TempDir()
	marker := "long-hook-" + filepath.Base(root)
	hook := "#!/usr/bin/env bash\nif [[ ${1:-} == --config ]]; then echo '{\"configVersion\":\"v1\",\"onStartup\":1}'; exit 0; fi\n" +
		"echo started\nexec -a " + marker + " sleep 300\n"
	if err := os.MkdirAll(filepath.Join(root, "global-hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "global-hooks", "long"), []byte(hook), 0o755); err != nil {
		t.Fatal(err)
	}
	op := startOperator(t, root, kube.Namespace(t), "ADDON_OPERATOR_SHUTDOWN_GRACE=2s")
	op.waitRecord(t, "started", map[string]any{"output": "stdout"})
	start := time.Now()
	op.stop(t)
	took := time.Since(start)
	if code := op.cmd.ProcessState.ExitCode(); code != 0 {
		t.Fatalf("exit code %d\n%s", code, op.logText())
	}
	if took > 15*time.Second {
		t.Fatalf("stopping took %s with a 2s grace period", took)
	}
	t.Logf("stopped in %s", took)
	if pids := processesNamed(marker); len(pids) > 0 {
		t.Fatalf("hook processes left: %v", pids)
	}
}

// processesNamed lists the pids whose command line starts with name.
func processesNamed(name string) []string {
	entries, _ := os.ReadDir("/proc")
	var pids []string
	for _, e := range entries {
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.HasPrefix(string(cmdline), name) {
			pids = append(pids, e.Name())
		}
	}
	return pids
}

// SIGTERM while helm upgrades a release of 200 objects. Within the grace
// period the upgrade finishes: the release is deployed when the process
// exits 0. With no grace the upgrade is cancelled mid-way and the process
// still exits 0; the next operator finds the release as it was left
// (failed, or pending-upgrade) and brings it to deployed with the new
// values.
func TestSigtermDuringHelmUpgrade(t *testing.T) {
	t.Run("grace", func(t *testing.T) { sigtermDuringUpgrade(t, "30s") })
	t.Run("no grace", func(t *testing.T) { sigtermDuringUpgrade(t, "1ms") })
}

func sigtermDuringUpgrade(t *testing.T, grace string) {
	root, ns := t.TempDir(), kube.Namespace(t)
	files := map[string]string{
		"modules/values.yaml":        "bigEnabled: true\n",
		"modules/001-big/Chart.yaml": "apiVersion: v2\nname: big\nversion: 0.1.0\n",
		"modules/001-big/templates/cms.yaml": "{{- range $i := until 200 }}\n---\napiVersion: v1\nkind: ConfigMap\n" +
			"metadata:\n  name: big-{{ $i }}\ndata:\n  payload: {{ $.Values.big.payload | quote }}\n{{- end }}\n",
	}
	writeFiles(t, root, files)
	client := kube.Client(t)
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "addon-operator"}, Data: map[string]string{"big": "payload: v1\n"}}
	if _, err := client.CoreV1().ConfigMaps(ns).Create(context.Background(), cm, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	op := startOperator(t, root, ns, "LOG_LEVEL=debug", "ADDON_OPERATOR_SHUTDOWN_GRACE="+grace)
	op.waitReady(t)
	op.waitIdle(t)
	cm.Data["big"] = "payload: v2\n"
	if _, err := client.CoreV1().ConfigMaps(ns).Update(context.Background(), cm, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	op.waitLog(t, 60*time.Second, "helm creating the upgraded release", func(recs []map[string]any) bool {
		for _, r := range recs {
			if msg, _ := r["msg"].(string); strings.HasPrefix(msg, "creating upgraded release for big") {
				return true
			}
		}
		return false
	})
	op.stop(t)
	if code := op.cmd.ProcessState.ExitCode(); code != 0 {
		t.Fatalf("exit code %d\n%s", code, op.logText())
	}
	status, rev := releaseStatus(t, client, ns, "big")
	t.Logf("release after SIGTERM mid-upgrade with %s grace: revision %d %s", grace, rev, status)
	if grace == "30s" && (status != "deployed" || rev != 2) {
		t.Fatalf("the upgrade did not finish within the grace period: revision %d %s\n%s", rev, status, op.logText())
	}
	next := startOperator(t, root, ns)
	next.waitReady(t)
	next.waitIdle(t)
	if status, rev = releaseStatus(t, client, ns, "big"); status != "deployed" {
		t.Fatalf("release big revision %d is %s after the next start\n%s", rev, status, next.logText())
	}
	for _, name := range []string{"big-0", "big-199"} {
		if got := configMap(t, client, ns, name)["payload"]; got != "v2" {
			t.Fatalf("%s payload %q, want v2", name, got)
		}
	}
}

// releaseStatus is the status and number of a release's newest revision.
func releaseStatus(t *testing.T, client kubernetes.Interface, ns, name string) (string, int) {
	t.Helper()
	secrets, err := client.CoreV1().Secrets(ns).List(context.Background(), metav1.ListOptions{LabelSelector: "owner=helm,name=" + name})
	if err != nil {
		t.Fatal(err)
	}
	newest, status := 0, "missing"
	for _, s := range secrets.Items {
		if rev, _ := strconv.Atoi(s.Labels["version"]); rev > newest {
			newest, status = rev, s.Labels["status"]
		}
	}
	return status, newest
}
