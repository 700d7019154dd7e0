package hookexec

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
)

// lineLogger turns a hook's output stream into log records, one per line,
// with bounded memory: a line longer than maxLine is logged truncated and the
// rest of it dropped. A line that is a JSON object keeps its keys as fields.
// Past its budget (lines and bytes per run and stream) lines are dropped,
// counted, and reported in one record when the stream ends.
type lineLogger struct {
	log     *slog.Logger
	stream  string // "stdout" or "stderr"
	maxLine int
	tail    *tail // nil when no tail is kept
	budget  outputBudget
	// readers keeps the maxLine buffers between runs (two per hook run of
	// 64 KiB each, allocated and zeroed per run, were most of a run's
	// garbage); nil allocates one.
	readers *sync.Pool
}

func (l *lineLogger) consume(r io.Reader) {
	br := l.reader(r)
	defer l.release(br)
	defer l.reportDropped()
	for {
		line, err := br.ReadSlice('\n')
		truncated := errors.Is(err, bufio.ErrBufferFull)
		size, kept := len(line), true
		if size > 0 {
			kept = l.emit(line, truncated)
		}
		for errors.Is(err, bufio.ErrBufferFull) {
			var rest []byte
			rest, err = br.ReadSlice('\n') // drop the rest of an over-long line
			size += len(rest)
		}
		if !kept {
			l.budget.droppedBytes += int64(size)
		}
		if err != nil {
			return
		}
	}
}

// emit logs a line, or only counts it when the budget is spent; it says
// whether the line was logged.
func (l *lineLogger) emit(line []byte, truncated bool) bool {
	size := len(line)
	line = bytes.TrimRight(line, "\r\n")
	if l.tail != nil {
		l.tail.add(line)
	}
	if !l.budget.take(size) {
		return false
	}
	attrs := []slog.Attr{slog.String("output", l.stream)}
	if truncated {
		attrs = append(attrs, slog.Bool("truncated", true))
	}
	level, msg, fields, ok := jsonLine(line)
	if !ok {
		level, msg = slog.LevelInfo, string(line)
	}
	l.log.LogAttrs(context.Background(), level, msg, append(attrs, fields...)...)
	return true
}

// DroppedOutputMessage is the message of the record that reports the lines
// of a stream dropped over the output limits.
const DroppedOutputMessage = "hook output over the limit dropped"

func (l *lineLogger) reportDropped() {
	b := l.budget
	if b.droppedLines == 0 {
		return
	}
	l.log.LogAttrs(context.Background(), slog.LevelWarn, DroppedOutputMessage,
		slog.String("output", l.stream), slog.Int64("dropped_lines", b.droppedLines),
		slog.Int64("dropped_bytes", b.droppedBytes), slog.Int("max_lines", b.maxLines),
		slog.Int("max_bytes", b.maxBytes))
}

// outputBudget is how many lines and bytes of a stream are logged: the
// first lines until either limit would be passed (0 is no limit); every
// line after is dropped.
type outputBudget struct {
	maxLines, maxBytes int
	lines, bytes       int
	droppedLines       int64
	droppedBytes       int64
}

// take spends size bytes and a line, or counts the line dropped.
func (b *outputBudget) take(size int) bool {
	over := b.droppedLines > 0 ||
		(b.maxLines > 0 && b.lines+1 > b.maxLines) ||
		(b.maxBytes > 0 && b.bytes+size > b.maxBytes)
	if over {
		b.droppedLines++
		return false
	}
	b.lines++
	b.bytes += size
	return true
}

// jsonLine reads a line that is a JSON object: msg/message becomes the
// message, level its level, other keys fields in key order.
func jsonLine(line []byte) (slog.Level, string, []slog.Attr, bool) {
	if len(line) < 2 || line[0] != '{' {
		return 0, "", nil, false
	}
	var obj map[string]any
	if json.Unmarshal(line, &obj) != nil {
		return 0, "", nil, false
	}
	msg, _ := firstString(obj, "msg", "message")
	lvl, _ := firstString(obj, "level", "lvl")
	keys := make([]string, 0, len(obj))
	for k := range obj {
		switch k {
		case "msg", "message", "level", "lvl", "time", "ts":
		default:
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	attrs := make([]slog.Attr, 0, len(keys))
	for _, k := range keys {
		attrs = append(attrs, slog.Any(k, obj[k]))
	}
	return parseLevel(lvl), msg, attrs, true
}

func firstString(obj map[string]any, keys ...string) (string, bool) {
	for _, k := range keys {
		if s, ok := obj[k].(string); ok {
			return s, true
		}
	}
	return "", false
}

func parseLevel(s string) slog.Level {
	switch strings.ToLower(s) {
	case "debug", "trace":
		return slog.LevelDebug
	case "warn", "warning":
		return slog.LevelWarn
	case "error", "fatal", "panic":
		return slog.LevelError
	default:
		return slog.LevelInfo
	}
}

// tail keeps the last n lines of a stream, each cut to maxTailLine bytes.
type tail struct {
	lines []string
	next  int
	full  bool
}

const maxTailLine = 1024

func newTail(n int) *tail { return &tail{lines: make([]string, n)} }

func (t *tail) add(line []byte) {
	if len(t.lines) == 0 {
		return
	}
	if len(line) > maxTailLine {
		line = append(line[:maxTailLine:maxTailLine], "..."...)
	}
	t.lines[t.next] = string(line)
	t.next = (t.next + 1) % len(t.lines)
	t.full = t.full || t.next == 0
}

// last returns the kept lines, oldest first.
func (t *tail) last() []string {
	if !t.full {
		return slices.Clone(t.lines[:t.next])
	}
	return append(slices.Clone(t.lines[t.next:]), t.lines[:t.next]...)
}

// limitedBuffer captures up to max bytes and drains the rest, remembering
// that it overflowed (for the --config output).
type limitedBuffer struct {
	buf      bytes.Buffer
	max      int
	overflow bool
}

func (b *limitedBuffer) consume(r io.Reader) {
	_, _ = io.Copy(&b.buf, io.LimitReader(r, int64(b.max)+1))
	if b.buf.Len() > b.max {
		b.overflow = true
		b.buf.Truncate(b.max)
		_, _ = io.Copy(io.Discard, r)
	}
}

// reader returns a reader of r with a buffer of maxLine bytes, from the
// pool when it has one of that size.
func (l *lineLogger) reader(r io.Reader) *bufio.Reader {
	if l.readers != nil {
		if br, ok := l.readers.Get().(*bufio.Reader); ok && br.Size() == l.maxLine {
			br.Reset(r)
			return br
		}
	}
	return bufio.NewReaderSize(r, l.maxLine)
}

// release hands br back to the pool; nothing read through it is kept
// (emit and tail copy what they keep).
func (l *lineLogger) release(br *bufio.Reader) {
	if l.readers != nil {
		br.Reset(nil)
		l.readers.Put(br)
	}
}
