package e2e_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// `actors --history ACTOR` prints an actor's flight recorder through the
// built binary: the module actor's handled messages, newest last, each
// with its time, duration and outcome; an unknown actor is an error
// naming it.
func TestActorsHistory(t *testing.T) {
	op := startOneHookModule(t, "hello", "true")
	op.waitReady(t)
	op.waitIdle(t)

	var h struct {
		Actor   string
		Entries []struct {
			Type, Summary, Outcome string
			At                     time.Time
			Duration               time.Duration
		}
	}
	historyJSON(t, op, "module/hello", &h)
	if h.Actor != "operator/module/hello" || len(h.Entries) == 0 || len(h.Entries) > 256 {
		t.Fatalf("history of %q: %d entries", h.Actor, len(h.Entries))
	}
	for i, e := range h.Entries {
		if e.Type == "" || e.Outcome != "ok" || e.At.IsZero() || e.Duration < 0 ||
			i > 0 && e.At.Before(h.Entries[i-1].At) {
			t.Fatalf("entry %d out of order or incomplete: %+v", i, e)
		}
	}
	text := op.cli(t, "actors", "--history", "module/hello")
	lines := strings.Split(strings.TrimSpace(text), "\n")
	if !strings.HasPrefix(lines[0], "ACTOR operator/module/hello: last ") || !strings.HasPrefix(lines[1], "TIME") ||
		len(lines) != len(h.Entries)+2 || !strings.Contains(lines[len(lines)-1], h.Entries[len(h.Entries)-1].Type) {
		t.Fatalf("actors --history module/hello:\n%s", text)
	}
	if !strings.Contains(text, "messages.RunTask") || !strings.Contains(text, "ModuleRun hello (converge)") {
		t.Fatalf("module/hello's history lacks its run task and its summary:\n%s", text)
	}
	if q := op.cli(t, "actors", "--history", "queue"); !strings.HasPrefix(q, "ACTOR operator/queue:") ||
		!strings.Contains(q, "messages.TaskDone") || !strings.Contains(q, " done ") {
		t.Fatalf("actors --history queue:\n%s", q)
	}
	out, err := runCLI(op.socket, "actors", "--history", "module/nope")
	if err == nil || !strings.Contains(out, `no actor "module/nope"`) {
		t.Fatalf("unknown actor: %v\n%s", err, out)
	}
	t.Logf("actors --history module/hello:\n%s", text)
}

// A module whose hook fails: the message that ended each failed run shows
// in its history with the outcome error and the hook's error.
func TestActorsHistoryShowsAFailedRun(t *testing.T) {
	op := startOneHookModule(t, "broken", "echo broken >&2; exit 3")
	op.waitRecord(t, "task failed; retrying", map[string]any{"attempt": 2.0})
	var h struct {
		Entries []struct{ Type, Outcome, Error string }
	}
	historyJSON(t, op, "module/broken", &h)
	failed := 0
	for _, e := range h.Entries {
		if e.Outcome == "error" && e.Type == "worker.HookResult" && strings.Contains(e.Error, "exited with code 3") {
			failed++
		}
	}
	text := op.cli(t, "actors", "--history", "module/broken")
	if failed < 2 || !strings.Contains(text, " error ") {
		t.Fatalf("want the two failed runs with outcome error and the exit code: %+v\n%s", h.Entries, text)
	}
	t.Logf("actors --history module/broken:\n%s", text)
}

// startOneHookModule starts the operator on one enabled module, name, whose
// one hook runs body on beforeHelm.
func startOneHookModule(t *testing.T, name, body string) *operator {
	t.Helper()
	root := tree(t, map[string]string{
		"modules/values.yaml":              name + "Enabled: true\n",
		"modules/001-" + name + "/hooks/h": hook(`{"configVersion":"v1","beforeHelm":1}`, body),
	})
	return startSpec(t, root, kube.Namespace(t))
}

// historyJSON decodes `actors --history ACTOR -o json` into h.
func historyJSON(t *testing.T, op *operator, actor string, h any) {
	t.Helper()
	if err := json.Unmarshal([]byte(op.cli(t, "actors", "--history", actor, "-o", "json")), h); err != nil {
		t.Fatal(err)
	}
}
