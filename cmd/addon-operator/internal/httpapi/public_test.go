package httpapi_test

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/httpapi"
	"github.com/addon-actors/addon-operator/hookexec"
	"github.com/addon-actors/addon-operator/messages"
)

const marker = "DB_PASSWORD=hunter2-marker"

// stderrSnapshot is a queue whose tasks carry a failed hook's stderr in
// every text a task has: its error (an *ExitError wrapped twice), the
// retry that superseded it, a timeout's error, and a status over lines.
func stderrSnapshot() messages.QueueSnapshot {
	exit := &hookexec.ExitError{Hook: "/modules/001-a/hooks/h", Code: 1, StderrTail: []string{"connecting", marker}}
	wrapped := fmt.Errorf("module a: beforeHelm: %w", exit).Error()
	timeout := "hook /modules/001-a/hooks/slow timed out after 1s (its limit), killed with its process group" +
		hookexec.StderrTailMark + "\n" + marker
	joined := errors.Join(errors.New("helm upgrade a: failed"), errors.New(marker)).Error()
	return messages.QueueSnapshot{At: now, Queues: []messages.QueueState{{Name: "main", Tasks: []messages.Task{
		{ID: 1, Queue: "main", Kind: messages.TaskModuleRun, Module: "a", Attempts: 3, LastError: wrapped, NextRetry: now.Add(time.Second)},
		{ID: 2, Queue: "main", Kind: messages.TaskModuleRun, Module: "a", Supersedes: "replaces the retry of ModuleRun:a (attempt 3 failed: " + wrapped + ")"},
		{ID: 3, Queue: "main", Kind: messages.TaskModuleRun, Module: "b", Attempts: 1, LastError: timeout},
		{ID: 4, Queue: "main", Kind: messages.TaskModuleRun, Module: "c", Attempts: 1, LastError: joined},
		{ID: 5, Queue: "main", Kind: messages.TaskModuleRun, Module: "d", Running: true, Status: "waiting for Job d/migrate\n" + marker},
	}}}}
}

// /queue, as text and as JSON, and /metrics/hooks show an error's first
// line and none of the hook's stderr; the snapshot the debug socket serves
// keeps it whole.
func TestNoHookOutputOnThePort(t *testing.T) {
	snap := stderrSnapshot()
	hooks := prometheus.NewRegistry()
	c := prometheus.NewCounter(prometheus.CounterOpts{Name: "addon_operator_hook_written_total", Help: "t"})
	hooks.MustRegister(c)
	h := httpapi.NewHandler(httpapi.Options{Ready: func() bool { return true }, Queue: func() messages.QueueSnapshot { return snap },
		Registry: prometheus.NewRegistry(), HookRegistry: hooks, Now: func() time.Time { return now }})
	_, text := get(t, h, "/queue")
	_, js := get(t, h, "/queue?format=json")
	_, metrics := get(t, h, "/metrics/hooks")
	for name, body := range map[string]string{"/queue": text, "/queue?format=json": js, "/metrics/hooks": metrics} {
		if strings.Contains(body, "hunter2") || strings.Contains(body, "connecting") || strings.Contains(body, "last stderr") {
			t.Errorf("%s shows the hook's stderr:\n%s", name, body)
		}
	}
	for _, want := range []string{"module a: beforeHelm: hook /modules/001-a/hooks/h exited with code 1",
		"killed with its process group", "helm upgrade a: failed", "waiting for Job d/migrate"} {
		if !strings.Contains(text, want) || !strings.Contains(js, want) {
			t.Errorf("the first line %q is not shown:\n%s\n%s", want, text, js)
		}
	}
	if !strings.Contains(snap.Queues[0].Tasks[0].LastError, marker) {
		t.Fatal("serving /queue changed the board's snapshot, which the debug socket serves whole")
	}
}

func TestPublicText(t *testing.T) {
	for in, want := range map[string]string{
		"":              "",
		"exit code 1":   "exit code 1",
		"first\nsecond": "first",
		"hook h exited with code 2" + hookexec.StderrTailMark + "\nsecret": "hook h exited with code 2",
		"a; b": "a; b",
	} {
		if got := httpapi.PublicText(in); got != want {
			t.Errorf("PublicText(%q) = %q, want %q", in, got, want)
		}
	}
}

// The port reads no request bodies: one that comes with a body is refused
// before any handler.
func TestRequestBodiesAreRefused(t *testing.T) {
	h := handler(true, messages.QueueSnapshot{})
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", strings.NewReader(strings.Repeat("x", 1<<20))))
	if rec.Code != http.StatusRequestEntityTooLarge {
		t.Fatalf("GET /metrics with a body: %d, want 413", rec.Code)
	}
}

// Guard wraps /metrics, /metrics/hooks and /queue; the probes stay open.
func TestGuardLeavesTheProbesOpen(t *testing.T) {
	deny := func(http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { http.Error(w, "no", http.StatusUnauthorized) })
	}
	h := httpapi.NewHandler(httpapi.Options{Ready: func() bool { return true }, Queue: func() messages.QueueSnapshot { return messages.QueueSnapshot{} },
		Registry: prometheus.NewRegistry(), HookRegistry: prometheus.NewRegistry(), Now: func() time.Time { return now }, Guard: deny})
	for path, want := range map[string]int{"/healthz": 200, "/readyz": 200, "/metrics": 401, "/metrics/hooks": 401, "/queue": 401,
		"/queue?format=json": 401} {
		if code, _ := get(t, h, path); code != want {
			t.Errorf("GET %s: %d, want %d", path, code, want)
		}
	}
}
