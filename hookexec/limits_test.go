package hookexec

import (
	"context"
	"fmt"
	"log/slog"
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
	wantErr(t, err, ErrTimeout, "spawn-and-hang.sh timed out after 2s")
	wantEq(t, "exit code of the killed hook", res.ExitCode, 128+9)
	assertGone(t, out, "hook.pid", "child.pid", "subshell.pid", "grandchild.pid")
}

// TestRunFloodIsBounded: a hook printing a million short lines on each
// stream is logged as its first MaxOutputLines lines per stream and one
// record per stream counting the rest.
func TestRunFloodIsBounded(t *testing.T) {
	const floodBytes = 2_000_000 // "y\n" lines: a million of them
	res, lines, dropped := runFlood(t, floodBytes, Options{MaxOutputLines: 100})
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
	res, lines, dropped := runFlood(t, 10000, Options{MaxOutputBytes: 101})
	wantEq(t, "stdout records", lines["stdout"], 50) // 50 lines of 2 bytes; the 51st would pass 101
	wantEq(t, "stdout dropped bytes", dropped["stdout"].attrs["dropped_bytes"], any(int64(10000-100)))
	wantEq(t, "result dropped lines", res.DroppedLines, int64(2*(5000-50)))
}

// TestRunOutputUnbounded: a negative limit logs every line, and nothing is
// reported dropped.
func TestRunOutputUnbounded(t *testing.T) {
	res, lines, dropped := runFlood(t, 20000, Options{MaxOutputLines: -1, MaxOutputBytes: -1})
	wantEq(t, "stdout records", lines["stdout"], 10000)
	wantEq(t, "stderr records", lines["stderr"], 10000)
	wantEq(t, "dropped records", len(dropped), 0)
	wantEq(t, "result dropped lines", res.DroppedLines, int64(0))
}

// runFlood runs flood.sh, which prints floodBytes bytes of "y\n" lines on
// each stream, with the output limits of limits, and counts its records as
// countStreams does.
func runFlood(t *testing.T, floodBytes int, limits Options) (Result, map[string]int, map[string]record) {
	t.Helper()
	rec := newRecorder()
	limits.Logger, limits.TmpDir, limits.Environ = slog.New(rec), t.TempDir(), baseEnv(fmt.Sprintf("FLOOD_BYTES=%d", floodBytes))
	res, err := newRunner(t, limits).Run(context.Background(), Request{Hook: testHook(t, "flood.sh"), Scope: PatchScope{RootKey: "global"}})
	if err != nil {
		t.Fatal(err)
	}
	lines, dropped := countStreams(rec.all())
	return res, lines, dropped
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
