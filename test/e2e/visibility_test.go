package e2e_test

import (
	"context"
	"encoding/json"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// A hook failing over and over shows in /queue, in the hook error metric,
// in `queue list`; a hook blocked on purpose shows in `actors` as the job
// its worker is handling, with its age; the TCP port serves no values.
func TestFailingAndBlockedHooksAreVisible(t *testing.T) {
	root, ns := t.TempDir(), kube.Namespace(t)
	// The slow hook runs on a ConfigMap the test creates once main is stuck
	// on the failing module (a global hook's runs wait for each other).
	slowConfig := `{"configVersion":"v1","kubernetes":[{"name":"trigger","apiVersion":"v1","kind":"ConfigMap",` +
		`"executeHookOnSynchronization":false,"queue":"slow","namespace":{"nameSelector":{"matchNames":["` + ns + `"]}},` +
		`"nameSelector":{"matchNames":["trigger"]}}]}`
	files := map[string]string{
		"modules/values.yaml":         "failingEnabled: true\n",
		"modules/001-failing/hooks/h": "#!/usr/bin/env bash\nif [[ ${1:-} == --config ]]; then echo '{\"configVersion\":\"v1\",\"beforeHelm\":1}'; exit 0; fi\necho broken >&2; exit 1\n",
		"global-hooks/slow":           "#!/usr/bin/env bash\nif [[ ${1:-} == --config ]]; then echo '" + slowConfig + "'; exit 0; fi\necho slow-started\nsleep 300\n",
	}
	writeFiles(t, root, files)
	op := startOperator(t, root, ns, "ADDON_OPERATOR_SHUTDOWN_GRACE=1s")
	op.waitListening(t)
	op.waitRecord(t, "task failed; retrying", map[string]any{"attempt": 2.0})
	client := kube.Client(t)
	trigger := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "trigger"}}
	if _, err := client.CoreV1().ConfigMaps(ns).Create(context.Background(), trigger, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	op.waitRecord(t, "slow-started", map[string]any{"output": "stdout"})
	const errs = `addon_operator_module_hook_errors_total{activation="OperatorStartup",binding="beforeHelm",hook="hooks/h",module="failing",queue="main"}`
	if _, m := op.get(t, "/metrics"); seriesValue(m, errs) < 1 {
		t.Fatalf("/metrics counts no hook error: %s", errs)
	}
	if out := op.cli(t, "queue", "list"); !strings.Contains(out, "retrying") || !strings.Contains(out, "exit") {
		t.Fatalf("queue list:\n%s", out)
	}
	var actors []struct {
		Path, Current string
		CurrentFor    time.Duration `json:"currentFor"`
		MailboxLength int           `json:"mailboxLength"`
	}
	if err := json.Unmarshal([]byte(op.cli(t, "actors", "-o", "json")), &actors); err != nil {
		t.Fatal(err)
	}
	var blocked, module bool
	for _, a := range actors {
		blocked = blocked || strings.HasPrefix(a.Path, "operator/global/worker") && strings.Contains(a.Current, "HookJob") && a.CurrentFor > 0
		module = module || a.Path == "operator/module/failing"
	}
	if !blocked || !module {
		t.Fatalf("actors: blocked worker shown %t, module shown %t\n%v", blocked, module, actors)
	}
	if code, _ := op.get(t, "/modules/failing/values"); code != 404 {
		t.Fatalf("the TCP port answered a values request with %d", code)
	}
	if out := op.cli(t, "module", "values", "failing", "-o", "json"); !strings.Contains(out, `"patches"`) {
		t.Fatalf("module values:\n%s", out)
	}
}

// The CLI's bad input: no operator at the socket names the path and the
// variable; an unknown module or hook is named in the error; both exit 1.
func TestDebugCLIBadInput(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nowhere", "debug.socket")
	out, err := runCLI(missing, "queue", "list")
	if code := exitCode(err); code != 1 || !strings.Contains(out, missing) || !strings.Contains(out, "DEBUG_UNIX_SOCKET") {
		t.Fatalf("no socket: exit %d\n%s", code, out)
	}
	op := startOperator(t, examples(t), kube.Namespace(t))
	op.waitReady(t)
	for _, args := range [][]string{{"module", "values", "no-such-module"}, {"module", "render", "no-such-module"},
		{"hook", "snapshots", "no-such-hook"}} {
		out, err := runCLI(op.socket, args...)
		if code := exitCode(err); code != 1 || !strings.Contains(out, "no-such-") {
			t.Fatalf("%v: exit %d\n%s", args, code, out)
		}
	}
}

func exitCode(err error) int {
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}
