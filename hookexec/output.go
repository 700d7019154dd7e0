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
)

// lineLogger turns a hook's output stream into log records, one per line,
// with bounded memory: a line longer than maxLine is logged truncated and the
// rest of it dropped. A line that is a JSON object keeps its keys as fields.
type lineLogger struct {
	log     *slog.Logger
	stream  string // "stdout" or "stderr"
	maxLine int
	tail    *tail // nil when no tail is kept
}

func (l *lineLogger) consume(r io.Reader) {
	br := bufio.NewReaderSize(r, l.maxLine)
	for {
		line, err := br.ReadSlice('\n')
		truncated := errors.Is(err, bufio.ErrBufferFull)
		if len(line) > 0 {
			l.emit(line, truncated)
		}
		for errors.Is(err, bufio.ErrBufferFull) {
			_, err = br.ReadSlice('\n') // drop the rest of an over-long line
		}
		if err != nil {
			return
		}
	}
}

func (l *lineLogger) emit(line []byte, truncated bool) {
	line = bytes.TrimRight(line, "\r\n")
	if l.tail != nil {
		l.tail.add(line)
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
