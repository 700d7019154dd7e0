package image_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/addon-actors/addon-operator/test/image"
	"github.com/addon-actors/addon-operator/test/scenario"
)

// The operator's image, with modules baked in an image FROM it as users
// do (the examples and extraModules), runs against the test cluster as the chart runs it (its user, a
// read-only root): it converges, its hooks run kubectl and the shell
// library from the image, and /metrics answers on its port.
func TestOperatorImageConvergesModules(t *testing.T) {
	ctx, img := ensureImage(t, 10*time.Minute)
	ref := buildModulesImage(ctx, t, img, imageTag(t, ""))
	ns, port := kube.Namespace(t), scenario.Port(t)
	logs := runOperator(ctx, t, img.Podman, ref, ns, port)
	waitLog(t, logs, "first converge done; ready", 3*time.Minute)

	client := kube.Client(t)
	for name, want := range map[string]string{"shell-lib-ran": "onStartup", "kubectl-saw": "chart"} {
		cm, err := client.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			t.Fatalf("ConfigMap %s the hooks write with kubectl: %v", name, err)
		}
		for _, v := range cm.Data {
			if v != want {
				t.Fatalf("ConfigMap %s: %v, want %q", name, cm.Data, want)
			}
		}
	}
	resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/metrics", port))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("/metrics: %d", resp.StatusCode)
	}
}

// runOperator starts the operator's container in the host's network (the
// test apiserver listens on loopback) with the cluster's kubeconfig, and
// returns its JSON log lines as they come; the container is removed after
// the test.
func runOperator(ctx context.Context, t *testing.T, p image.Podman, ref, ns string, port int) <-chan map[string]any {
	t.Helper()
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	data, err := os.ReadFile(kube.Kubeconfig())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(kubeconfig, data, 0o644); err != nil { // the image's user reads it
		t.Fatal(err)
	}
	name := fmt.Sprintf("addon-operator-test-%d", port)
	args := []string{"run", "-d", "--name", name, "--network", "host", "--read-only", "--tmpfs", "/tmp",
		"--tmpfs", "/var/run/addon-operator", "-v", kubeconfig + ":/kubeconfig:ro", "-e", "KUBECONFIG=/kubeconfig",
		"-e", "ADDON_OPERATOR_NAMESPACE=" + ns, "-e", "LOG_TYPE=json", "-e", "ADDON_OPERATOR_LISTEN_ADDRESS=127.0.0.1",
		"-e", fmt.Sprintf("ADDON_OPERATOR_LISTEN_PORT=%d", port), ref}
	if _, err := p.Output(ctx, args...); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = p.Output(context.Background(), "rm", "-f", "-t", "5", name) })
	return follow(ctx, t, p, name)
}

// follow streams a container's JSON log records (`podman logs -f`).
func follow(ctx context.Context, t *testing.T, p image.Podman, name string) <-chan map[string]any {
	t.Helper()
	cmd := p.Command(ctx, "logs", "-f", name)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	records := make(chan map[string]any, 1024)
	go func() {
		defer close(records)
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			rec := map[string]any{}
			if json.Unmarshal(sc.Bytes(), &rec) != nil {
				rec = map[string]any{"msg": sc.Text()}
			}
			records <- rec
		}
		_ = cmd.Wait()
	}()
	return records
}

// waitLog waits for a record with msg, failing with what was logged.
func waitLog(t *testing.T, records <-chan map[string]any, msg string, within time.Duration) {
	t.Helper()
	var seen []string
	deadline := time.After(within)
	for {
		select {
		case rec, ok := <-records:
			if !ok {
				t.Fatalf("the container ended before %q:\n%s", msg, strings.Join(seen, "\n"))
			}
			line, _ := json.Marshal(rec)
			seen = append(seen, string(line))
			if rec["msg"] == msg {
				return
			}
		case <-deadline:
			t.Fatalf("no %q within %s:\n%s", msg, within, strings.Join(seen, "\n"))
		}
	}
}
