package hookexec

import (
	"context"
	"log/slog"
	"strings"
	"testing"
)

// TestRunBigOutput: megabytes of output, one 5 MB line among them, are
// logged with lines capped and the stderr tail bounded.
func TestRunBigOutput(t *testing.T) {
	rec := newRecorder()
	r := newRunner(t, Options{Logger: slog.New(rec), TmpDir: t.TempDir(), Environ: baseEnv(), MaxLineBytes: 4096,
		MaxOutputLines: -1, MaxOutputBytes: -1})
	if _, err := r.Run(context.Background(), Request{Hook: testHook(t, "big-output.sh"), Scope: PatchScope{RootKey: "global"}}); err != nil {
		t.Fatal(err)
	}
	records := rec.all()
	var stdout, stderr, truncated int
	for _, rec := range records {
		if len(rec.msg) > 4096 {
			t.Fatalf("record of %d bytes, cap is 4096", len(rec.msg))
		}
		if rec.attrs["truncated"] == true {
			truncated++
		}
		switch rec.attrs["output"] {
		case "stdout":
			stdout++
		case "stderr":
			stderr++
		}
	}
	wantEq(t, "truncated records", truncated, 1)
	wantEq(t, "stdout records", stdout, 100001)
	wantEq(t, "stderr records", stderr, 100001)
	if last := records[len(records)-1]; last.msg != "last stderr line" && !strings.HasPrefix(last.msg, "line ") {
		t.Errorf("unexpected last record %q", last.msg)
	}
}

func TestLineLoggerSplitsAndCaps(t *testing.T) {
	rec := newRecorder()
	tl := newTail(2)
	l := &lineLogger{log: slog.New(rec), stream: "stderr", maxLine: 16, tail: tl}
	l.consume(strings.NewReader("short\r\n" + strings.Repeat("x", 40) + "\nno eol"))
	got := rec.all()
	wantEq(t, "records", len(got), 3)
	wantEq(t, "crlf trimmed", got[0].msg, "short")
	wantEq(t, "capped", got[1].msg, strings.Repeat("x", 16))
	wantEq(t, "capped flagged", got[1].attrs["truncated"], any(true))
	wantEq(t, "last", got[2].msg, "no eol")
	wantEq(t, "tail", strings.Join(tl.last(), "|"), strings.Repeat("x", 16)+"|no eol")
}

func TestJSONLineFields(t *testing.T) {
	rec := newRecorder()
	l := &lineLogger{log: slog.New(rec), stream: "stdout", maxLine: 1024}
	l.consume(strings.NewReader(`{"level":"error","msg":"boom","time":"x","module":"m","n":1}` + "\n" + `{"not json` + "\n"))
	got := rec.all()
	wantEq(t, "level", got[0].level, slog.LevelError)
	wantEq(t, "msg", got[0].msg, "boom")
	wantEq(t, "field", got[0].attrs["module"], any("m"))
	if _, has := got[0].attrs["time"]; has {
		t.Errorf("hook's time kept as a field")
	}
	wantEq(t, "broken json is text", got[1].msg, `{"not json`)
}
