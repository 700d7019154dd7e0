package app_test

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/chartrun"
	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/app"
	"github.com/addon-actors/addon-operator/supervision"
	"github.com/addon-actors/addon-operator/test/scenario"
)

// tree writes files (path -> content) under a temp dir; paths under hooks/
// and named "enabled" are made executable.
func tree(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, content := range files {
		path := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		mode := os.FileMode(0o644)
		hookFile := strings.Contains(name, "/hooks/") || strings.HasPrefix(name, "global-hooks/")
		if hookFile && !strings.Contains(name, "/openapi/") || filepath.Base(name) == "enabled" {
			mode = 0o755
		}
		if err := os.WriteFile(path, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// started is an operator running in-process against the test cluster.
type started struct {
	app *app.App
	ns  string
	dir string
}

func startApp(t testing.TB, root string) *started {
	t.Helper()
	return startAppIn(t, root, kube.Namespace(t))
}

// startAppIn starts the app on root in ns; opts change its config.
func startAppIn(t testing.TB, root, ns string, opts ...func(*app.Config)) *started {
	t.Helper()
	cfg := kube.Config(t)
	releaser, err := chartrun.NewReleaser(cfg, ns, chartrun.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// A modules dir or global hooks dir that cannot be read is fatal; tests
	// of global hooks alone have no modules dir of their own, and those of
	// modules alone no global hooks dir.
	for _, dir := range []string{"modules", "global-hooks"} {
		if err := os.MkdirAll(filepath.Join(root, dir), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	w := &testWriter{t: t}
	t.Cleanup(w.close) // registered first, so it runs after the app's stop
	log := slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelInfo}))
	config := app.Config{
		ModulesDirs: []string{filepath.Join(root, "modules")}, GlobalHooksDir: filepath.Join(root, "global-hooks"),
		Namespace: ns, ConfigMap: "addon-operator", TmpDir: t.TempDir(),
		Environ: append(os.Environ(), "RECORD_DIR="+filepath.Join(root, "record")),
		Policy:  supervision.Fixed{Wait: 200 * time.Millisecond}, MetricsPrefix: "addon_operator_",
		Rest: cfg, Helm: app.ChartHelm{R: releaser}, Log: log, CheckInterval: 100 * time.Millisecond,
	}
	for _, o := range opts {
		o(&config)
	}
	a, err := app.Start(config)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := a.Stop(10 * time.Second); err != nil {
			t.Errorf("stop: %v", err)
		}
	})
	return &started{app: a, ns: ns, dir: root}
}

func (s *started) waitReady(t testing.TB) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	fatal := make(chan error, 1)
	go func() { fatal <- s.app.Wait(ctx) }()
	select {
	case <-s.app.Board.ReadyCh():
	case err := <-fatal:
		t.Fatalf("operator did not become ready: %v", err)
	}
}

func (s *started) record(t testing.TB, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(s.dir, "record", name))
	if err != nil {
		t.Fatalf("record %s: %v", name, err)
	}
	return string(data)
}

// testWriter sends log lines to the test's log until the test ends (a
// line from a goroutine after that would panic the test binary).
type testWriter struct {
	t      testing.TB
	mu     sync.Mutex
	closed bool
}

func (w *testWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.closed {
		w.t.Log(strings.TrimRight(string(p), "\n"))
	}
	return len(p), nil
}

func (w *testWriter) close() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.closed = true
}

func (s *started) waitFor(t testing.TB, what string, cond func(b *board.Board) bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := s.app.Board.WaitFor(ctx, cond); err != nil {
		t.Fatalf("waiting for %s: %v", what, err)
	}
}

// idle tells whether every queue is empty.
func idle(b *board.Board) bool {
	for _, q := range b.Queues().Queues {
		if len(q.Tasks) > 0 {
			return false
		}
	}
	return true
}

// moduleTasks is how many tasks the module has finished.
func moduleTasks(b *board.Board, name string) int { return b.Modules()[name].Tasks }

// Short names for the scenario package's hook helpers.
const recordLib = scenario.RecordLib

func hook(config, body string) string { return scenario.Hook(config, body) }
