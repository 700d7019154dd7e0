package e2e_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/test/proc"
)

// A hook that never exits, in its own queue: past the slow-run threshold
// (1s here) it is logged at WARN with its hook, binding and queue, again
// when its running time doubles, and the oldest-run gauge shows it; past
// the time limit (3s) the hook and its child are killed, the run fails
// with an error naming the hook and the limit, and the task is retried.
func TestHangingHookWarnsAndTimesOut(t *testing.T) {
	root, ns := t.TempDir(), kube.Namespace(t)
	writeFiles(t, root, map[string]string{
		"global-hooks/hang": hook(`{"configVersion":"v1","schedule":[{"name":"tick","crontab":"* * * * * *","queue":"slow"}]}`,
			`sleep 1000 & record "$$ $!" pids; wait`),
		"modules/values.yaml": "{}\n", // no modules, but the dir exists
	})
	op := startSpec(t, root, ns, "ADDON_OPERATOR_HOOK_SLOW_THRESHOLD=1s", "ADDON_OPERATOR_HOOK_TIMEOUT=3s")
	labels := map[string]any{"hook": "hang", "binding": "tick", "queue": "slow", "level": "WARN"}
	labels["running_for"] = "1s"
	op.waitRecord(t, "hook still running", labels)
	if v := oldestRunning(t, op, "slow"); v < 1 {
		t.Errorf("hook_oldest_running_seconds{queue=slow} = %g while the hook runs past 1s", v)
	}
	labels["running_for"] = "2s" // the running time doubled
	op.waitRecord(t, "hook still running", labels)
	failed := op.waitRecord(t, "task failed; retrying", map[string]any{"attempt": 1.0})
	if e, _ := failed["err"].(string); !strings.Contains(e, "global-hooks/hang timed out after 3s") {
		t.Fatalf("failure: %v, want the hook and its limit named", failed["err"])
	}
	assertKilled(t, root)
	op.waitRecord(t, "task failed; retrying", map[string]any{"attempt": 2.0}) // retried, timed out again
	if attempts := headAttempts(t, op, "slow"); attempts < 2 {
		t.Errorf("queue slow: head attempts %d, want at least 2", attempts)
	}
}

// A module hook printing 50 MB of short lines is logged as its first 1,000
// lines and one record saying how much was dropped; the dropped lines are
// counted on /metrics.
func TestFloodingHookIsBounded(t *testing.T) {
	root, ns := t.TempDir(), kube.Namespace(t)
	writeFiles(t, root, map[string]string{
		"modules/values.yaml":           "noisyEnabled: true\n",
		"modules/001-noisy/hooks/flood": hook(`{"configVersion":"v1","beforeHelm":1}`, `yes | head -c 50000000 || true`),
	})
	op := startSpec(t, root, ns)
	op.waitReady(t)
	dropped := op.waitRecord(t, "hook output over the limit dropped", map[string]any{"hook": "hooks/flood", "module": "noisy", "output": "stdout"})
	const lines, kept = 25_000_000, 1000 // "y\n" lines
	if dropped["dropped_lines"] != float64(lines-kept) || dropped["dropped_bytes"] != float64(2*(lines-kept)) {
		t.Errorf("dropped record %v, want %d lines and %d bytes", dropped, lines-kept, 2*(lines-kept))
	}
	if n := op.count("y", map[string]any{"hook": "hooks/flood", "output": "stdout"}); n != kept {
		t.Errorf("%d records of the hook's output, want %d", n, kept)
	}
	_, metrics := op.get(t, "/metrics")
	want := fmt.Sprintf(`addon_operator_hook_output_dropped_lines_total{hook="hooks/flood",module="noisy"} %g`, float64(lines-kept))
	if !strings.Contains(metrics, want) {
		t.Errorf("/metrics lacks %s", want)
	}
}

// oldestRunning reads hook_oldest_running_seconds of queue from /metrics.
func oldestRunning(t *testing.T, op *operator, queue string) float64 {
	t.Helper()
	_, body := op.get(t, "/metrics")
	re := regexp.MustCompile(`(?m)^addon_operator_hook_oldest_running_seconds\{queue="` + queue + `"\} (\S+)$`)
	m := re.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("/metrics has no hook_oldest_running_seconds for queue %s", queue)
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// headAttempts reads the attempts of the head task of queue from /queue.
func headAttempts(t *testing.T, op *operator, queue string) int {
	t.Helper()
	_, body := op.get(t, "/queue?format=json")
	var snap struct {
		Queues []struct {
			Name  string
			Tasks []struct{ Attempts int }
		}
	}
	if err := json.Unmarshal([]byte(body), &snap); err != nil {
		t.Fatalf("/queue: %v", err)
	}
	for _, q := range snap.Queues {
		if q.Name == queue && len(q.Tasks) > 0 {
			return q.Tasks[0].Attempts
		}
	}
	return 0
}

// assertKilled checks that the first timed-out run's hook and its child
// (pids recorded by the hook) have exited; SIGKILL is delivered
// asynchronously, so it waits for each exit on a pidfd, at most 5s.
func assertKilled(t *testing.T, root string) {
	t.Helper()
	first, _, _ := strings.Cut(record(t, root, "pids"), "\n")
	for _, field := range strings.Fields(first) {
		pid, err := strconv.Atoi(field)
		if err != nil {
			t.Fatalf("pids: %q", first)
		}
		if !proc.Exited(t, pid, 5*time.Second) && alive(pid) {
			t.Errorf("pid %d of the timed-out run still running", pid)
		}
	}
}

// alive tells whether pid exists and is not a zombie.
func alive(pid int) bool {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return false
	}
	return !strings.Contains(string(b), ") Z ")
}
