package hookexec

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"
)

// TestRunTimeoutFromOptions: the runner's own limit kills a hook that never
// exits, with its child and grandchild, and the error names the hook and
// the limit.
func TestRunTimeoutFromOptions(t *testing.T) {
	out := t.TempDir()
	r := newRunner(t, Options{TmpDir: t.TempDir(), Environ: baseEnv("OUT_DIR=" + out), Timeout: 2 * time.Second}) // long enough for the script to start its processes on a loaded machine
	res, err := r.Run(context.Background(), Request{Hook: testHook(t, "spawn-and-hang.sh"), Scope: PatchScope{RootKey: "global"}})
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("err = %v, want ErrTimeout", err)
	}
	want := "spawn-and-hang.sh timed out after 2s"
	if !strings.Contains(err.Error(), want) {
		t.Errorf("err = %q, want it to say %q", err, want)
	}
	wantEq(t, "exit code of the killed hook", res.ExitCode, 128+9)
	assertGone(t, out, "hook.pid", "child.pid", "subshell.pid", "grandchild.pid")
}

// TestRunFloodIsBounded: a hook printing a million short lines on each
// stream is logged as its first MaxOutputLines lines per stream and one
// record per stream counting the rest.
func TestRunFloodIsBounded(t *testing.T) {
	const floodBytes = 2_000_000 // "y\n" lines: a million of them
	rec := newRecorder()
	r := newRunner(t, Options{Logger: slog.New(rec), TmpDir: t.TempDir(),
		Environ: baseEnv("FLOOD_BYTES=2000000"), MaxOutputLines: 100})
	res, err := r.Run(context.Background(), Request{Hook: testHook(t, "flood.sh"), Scope: PatchScope{RootKey: "global"}})
	if err != nil {
		t.Fatal(err)
	}
	lines, dropped := countStreams(rec.all())
	for _, stream := range []string{"stdout", "stderr"} {
		wantEq(t, stream+" records", lines[stream], 100)
		d, ok := dropped[stream]
		if !ok {
			t.Fatalf("no %q record for %s", DroppedOutputMessage, stream)
		}
		wantEq(t, stream+" dropped lines", d.attrs["dropped_lines"], any(int64(floodBytes/2-100)))
		wantEq(t, stream+" dropped bytes", d.attrs["dropped_bytes"], any(int64(floodBytes-200)))
		wantEq(t, stream+" dropped level", d.level, slog.LevelWarn)
	}
	wantEq(t, "result dropped lines", res.DroppedLines, int64(floodBytes-200))
}

// TestRunOutputByteLimit: the byte limit ends the logged lines before the
// line limit does.
func TestRunOutputByteLimit(t *testing.T) {
	rec := newRecorder()
	r := newRunner(t, Options{Logger: slog.New(rec), TmpDir: t.TempDir(),
		Environ: baseEnv("FLOOD_BYTES=10000"), MaxOutputBytes: 101})
	res, err := r.Run(context.Background(), Request{Hook: testHook(t, "flood.sh"), Scope: PatchScope{RootKey: "global"}})
	if err != nil {
		t.Fatal(err)
	}
	lines, dropped := countStreams(rec.all())
	wantEq(t, "stdout records", lines["stdout"], 50) // 50 lines of 2 bytes; the 51st would pass 101
	wantEq(t, "stdout dropped bytes", dropped["stdout"].attrs["dropped_bytes"], any(int64(10000-100)))
	wantEq(t, "result dropped lines", res.DroppedLines, int64(2*(5000-50)))
}

// TestRunOutputUnbounded: a negative limit logs every line, and nothing is
// reported dropped.
func TestRunOutputUnbounded(t *testing.T) {
	rec := newRecorder()
	r := newRunner(t, Options{Logger: slog.New(rec), TmpDir: t.TempDir(),
		Environ: baseEnv("FLOOD_BYTES=20000"), MaxOutputLines: -1, MaxOutputBytes: -1})
	res, err := r.Run(context.Background(), Request{Hook: testHook(t, "flood.sh"), Scope: PatchScope{RootKey: "global"}})
	if err != nil {
		t.Fatal(err)
	}
	lines, dropped := countStreams(rec.all())
	wantEq(t, "stdout records", lines["stdout"], 10000)
	wantEq(t, "stderr records", lines["stderr"], 10000)
	wantEq(t, "dropped records", len(dropped), 0)
	wantEq(t, "result dropped lines", res.DroppedLines, int64(0))
}

// countStreams counts the output records per stream and picks the dropped
// records by stream.
func countStreams(records []record) (map[string]int, map[string]record) {
	lines, dropped := map[string]int{}, map[string]record{}
	for _, rec := range records {
		stream, _ := rec.attrs["output"].(string)
		if rec.msg == DroppedOutputMessage {
			dropped[stream] = rec
			continue
		}
		if stream != "" {
			lines[stream]++
		}
	}
	return lines, dropped
}
