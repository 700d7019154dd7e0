package hookexec

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// record is a log record flattened for assertions.
type record struct {
	level slog.Level
	msg   string
	attrs map[string]any
}

// recorder is a slog.Handler that keeps records and closes a channel when a
// record with a given message arrives.
type recorder struct {
	mu      *sync.Mutex
	records *[]record
	waits   map[string]chan struct{}
	attrs   []slog.Attr
}

func newRecorder(waitFor ...string) *recorder {
	r := &recorder{mu: &sync.Mutex{}, records: &[]record{}, waits: map[string]chan struct{}{}}
	for _, m := range waitFor {
		r.waits[m] = make(chan struct{})
	}
	return r
}

func (r *recorder) Enabled(context.Context, slog.Level) bool { return true }

func (r *recorder) Handle(_ context.Context, rec slog.Record) error {
	flat := record{level: rec.Level, msg: rec.Message, attrs: map[string]any{}}
	for _, a := range r.attrs {
		flat.attrs[a.Key] = a.Value.Any()
	}
	rec.Attrs(func(a slog.Attr) bool {
		flat.attrs[a.Key] = a.Value.Any()
		return true
	})
	r.mu.Lock()
	defer r.mu.Unlock()
	*r.records = append(*r.records, flat)
	if ch, ok := r.waits[rec.Message]; ok {
		close(ch)
		delete(r.waits, rec.Message)
	}
	return nil
}

func (r *recorder) WithAttrs(attrs []slog.Attr) slog.Handler {
	c := *r
	c.attrs = append(append([]slog.Attr{}, r.attrs...), attrs...)
	return &c
}

func (r *recorder) WithGroup(string) slog.Handler { return r }

// wait returns the channel closed when msg is logged; call before the run.
func (r *recorder) wait(msg string) <-chan struct{} {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.waits[msg]
}

func (r *recorder) all() []record {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]record{}, *r.records...)
}

func (r *recorder) find(msg string) (record, bool) {
	for _, rec := range r.all() {
		if rec.msg == msg {
			return rec, true
		}
	}
	return record{}, false
}

// testHook is a hook from testdata/hooks.
func testHook(t testing.TB, name string) Hook {
	t.Helper()
	root, err := filepath.Abs("testdata/hooks")
	if err != nil {
		t.Fatal(err)
	}
	return Hook{Name: name, Path: filepath.Join(root, name), Root: root}
}

// baseEnv is a minimal operator environment for test runs.
func baseEnv(extra ...string) []string {
	return append([]string{"PATH=" + os.Getenv("PATH")}, extra...)
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

// runDirFiles is what a run dir holds: the run's files and nothing else.
const runDirFiles = "binding_context.json config_values.json config_values_json_patch.json kubernetes_patch.yaml metrics.json values.json values_json_patch.json"

// runRecords reads the run-* records the run-dir test hooks write in out,
// one a run, as lines: the run dir, its files, the values, and what else
// the hook records. It fails unless there are runs of them, each of
// fields lines, and each run dir held runDirFiles.
func runRecords(t *testing.T, out string, runs, fields int) [][]string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(out, "run-*"))
	if err != nil || len(paths) != runs {
		t.Fatalf("records = %v (%v), want %d", paths, err, runs)
	}
	records := make([][]string, len(paths))
	for i, path := range paths {
		lines := strings.Split(readFile(t, path), "\n")
		if len(lines) != fields {
			t.Fatalf("%s: want %d lines (dir, files, values, ...); got %q", path, fields, lines)
		}
		wantEq(t, "files in the run dir", strings.TrimSpace(lines[1]), runDirFiles)
		records[i] = lines
	}
	return records
}

func assertNoEntries(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 0 {
		t.Errorf("%s not empty after the run: %v", dir, entries)
	}
}

// wantErr fails the test unless err wraps target and its message names
// each of names.
func wantErr(t *testing.T, err, target error, names ...string) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("err = %v, want %v", err, target)
	}
	for _, s := range names {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("err %q lacks %q", err, s)
		}
	}
}
