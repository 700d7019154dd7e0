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
	ns := kube.Namespace(t)
	root := tree(t, map[string]string{
		"modules/values.yaml":       "helloEnabled: true\n",
		"modules/001-hello/hooks/h": hook(`{"configVersion":"v1","beforeHelm":1}`, "true"),
	})
	op := startSpec(t, root, ns)
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
	if err := json.Unmarshal([]byte(op.cli(t, "actors", "--history", "module/hello", "-o", "json")), &h); err != nil {
		t.Fatal(err)
	}
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
	ns := kube.Namespace(t)
	root := tree(t, map[string]string{
		"modules/values.yaml":        "brokenEnabled: true\n",
		"modules/001-broken/hooks/h": hook(`{"configVersion":"v1","beforeHelm":1}`, "echo broken >&2; exit 3"),
	})
	op := startSpec(t, root, ns)
	op.waitRecord(t, "task failed; retrying", map[string]any{"attempt": 2.0})
	var h struct {
		Entries []struct{ Type, Outcome, Error string }
	}
	if err := json.Unmarshal([]byte(op.cli(t, "actors", "--history", "module/broken", "-o", "json")), &h); err != nil {
		t.Fatal(err)
	}
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
