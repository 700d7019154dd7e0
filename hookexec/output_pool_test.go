package hookexec

import (
	"log/slog"
	"strings"
	"sync"
	"testing"
)

// Runs that share the pool of line buffers log each its own lines: the
// records and the tail kept from a run are not changed by the next run
// reading into the same buffer.
func TestLineLoggersSharingBuffers(t *testing.T) {
	var pool sync.Pool
	rec := newRecorder()
	tl := newTail(2)
	first := &lineLogger{log: slog.New(rec), stream: "stderr", maxLine: 16, tail: tl, readers: &pool}
	first.consume(strings.NewReader("first run\n" + strings.Repeat("a", 20) + "\n"))
	second := &lineLogger{log: slog.New(rec), stream: "stderr", maxLine: 16, readers: &pool}
	second.consume(strings.NewReader(strings.Repeat("b", 16) + "\nsecond\n"))
	got := rec.all()
	wantEq(t, "records", len(got), 4)
	for i, want := range []string{"first run", strings.Repeat("a", 16), strings.Repeat("b", 16), "second"} {
		wantEq(t, "record", got[i].msg, want)
	}
	wantEq(t, "first run's tail", strings.Join(tl.last(), "|"), "first run|"+strings.Repeat("a", 16))
	// A pooled buffer of another size is not used (16 bytes, bufio's least).
	other := &lineLogger{log: slog.New(rec), stream: "stdout", maxLine: 32, readers: &pool}
	other.consume(strings.NewReader(strings.Repeat("c", 40) + "\n"))
	wantEq(t, "capped at its own size", rec.all()[4].msg, strings.Repeat("c", 32))
}

// BenchmarkLineLoggerConsume is the output handling of one hook run's
// stream: with the pool its 64 KiB buffer is not allocated per run.
func BenchmarkLineLoggerConsume(b *testing.B) {
	log := slog.New(slog.DiscardHandler)
	for _, pooled := range []bool{false, true} {
		b.Run(map[bool]string{false: "fresh", true: "pooled"}[pooled], func(b *testing.B) {
			var pool *sync.Pool
			if pooled {
				pool = &sync.Pool{}
			}
			b.ReportAllocs()
			for b.Loop() {
				l := &lineLogger{log: log, stream: "stdout", maxLine: 64 << 10, readers: pool}
				l.consume(strings.NewReader("a line\n"))
			}
		})
	}
}
