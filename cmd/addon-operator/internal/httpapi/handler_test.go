package httpapi_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/httpapi"
	"github.com/addon-actors/addon-operator/messages"
)

var now = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func get(t *testing.T, h http.Handler, path string) (int, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
	body, _ := io.ReadAll(rec.Body)
	return rec.Code, string(body)
}

func handler(ready bool, snap messages.QueueSnapshot) http.Handler {
	reg := prometheus.NewRegistry()
	c := prometheus.NewCounter(prometheus.CounterOpts{Name: "addon_operator_test_total", Help: "t"})
	reg.MustRegister(c)
	c.Inc()
	return httpapi.NewHandler(httpapi.Options{Ready: func() bool { return ready },
		Queue: func() messages.QueueSnapshot { return snap }, Registry: reg, Now: func() time.Time { return now }})
}

func TestHealthReadyMetrics(t *testing.T) {
	h := handler(false, messages.QueueSnapshot{})
	if code, _ := get(t, h, "/healthz"); code != 200 {
		t.Fatalf("/healthz %d", code)
	}
	// UPSTREAM.md §4: 500 "Startup converge in progress", then 200
	// "Startup converge done.".
	if code, body := get(t, h, "/readyz"); code != 500 || strings.TrimSpace(body) != "Startup converge in progress" {
		t.Fatalf("/readyz before ready: %d %q", code, body)
	}
	if code, body := get(t, handler(true, messages.QueueSnapshot{}), "/readyz"); code != 200 || strings.TrimSpace(body) != "Startup converge done." {
		t.Fatalf("/readyz when ready: %d %q", code, body)
	}
	if code, body := get(t, h, "/metrics"); code != 200 || !strings.Contains(body, "addon_operator_test_total 1") {
		t.Fatalf("/metrics: %d %q", code, body)
	}
}

func TestQueueTextAndJSON(t *testing.T) {
	snap := messages.QueueSnapshot{At: now, Queues: []messages.QueueState{
		{Name: "main", Tasks: []messages.Task{
			{ID: 1, Queue: "main", Kind: messages.TaskModuleRun, Module: "alpha", Attempts: 2,
				LastError: "hook hooks/a: exit code 1", NextRetry: now.Add(7 * time.Second)},
			{ID: 2, Queue: "main", Kind: messages.TaskGlobalHook, Hook: "h.sh", Binding: "afterAll"},
			{ID: 4, Queue: "main", Kind: messages.TaskReloadAll, Supersedes: "dropped the failing main:ModuleRun:alpha\nwith 3 tasks"},
		}},
		{Name: "named", Tasks: nil},
		{Name: "waits", Tasks: []messages.Task{{ID: 5, Queue: "waits", Kind: messages.TaskModuleRun, Module: "web", Running: true,
			Status: "waiting for Deployment ns/web: 1/3 available", StatusSince: now.Add(-40 * time.Second)}}},
		{Name: "parallel_queue_0", Tasks: []messages.Task{{ID: 3, Queue: "parallel_queue_0", Kind: messages.TaskParallelModuleRun,
			Modules: []string{"beta", "gamma"}}}},
	}}
	h := handler(true, snap)
	_, text := get(t, h, "/queue")
	for _, want := range []string{"Queue 'main': length 3", "ModuleRun", "retrying", "7s", "exit code 1",
		"  #3 dropped the failing main:ModuleRun:alpha\n", // the port shows a text's first line only
		"GlobalHookRun", "afterAll", "Queue 'named': length 0",
		"  #1 waiting for Deployment ns/web: 1/3 available, 40s\n", "Queue 'parallel_queue_0': length 1", "beta,gamma"} {
		if !strings.Contains(text, want) {
			t.Fatalf("/queue lacks %q:\n%s", want, text)
		}
	}
	lines := strings.Split(text, "\n")
	if strings.Index(lines[1], "TASK") != strings.Index(lines[2], "ModuleRun") {
		t.Fatalf("columns not aligned:\n%s", text)
	}
	_, body := get(t, h, "/queue?format=json")
	var got messages.QueueSnapshot
	if err := json.Unmarshal([]byte(body), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Queues) != 4 || got.Queues[0].Tasks[0].Attempts != 2 || got.Queues[0].Tasks[1].Hook != "h.sh" {
		t.Fatalf("json %s", body)
	}
	if _, empty := get(t, handler(true, messages.QueueSnapshot{}), "/queue"); !strings.Contains(empty, "length 0") {
		t.Fatalf("empty queue: %q", empty)
	}
}
