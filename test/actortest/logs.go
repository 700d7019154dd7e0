package actortest

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"
)

// LogHandler is a slog.Handler that hands every record of level Info and
// above to a test through the channel; a record the channel has no room
// for is dropped rather than block the actor that logs.
//
//	records := make(chan slog.Record, 64)
//	log := slog.New(actortest.LogHandler(records))
type LogHandler chan<- slog.Record

// Enabled implements slog.Handler.
func (h LogHandler) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelInfo }

// Handle implements slog.Handler.
func (h LogHandler) Handle(_ context.Context, r slog.Record) error {
	select {
	case h <- r.Clone():
	default:
	}
	return nil
}

// WithAttrs implements slog.Handler.
func (h LogHandler) WithAttrs([]slog.Attr) slog.Handler { return h }

// WithGroup implements slog.Handler.
func (h LogHandler) WithGroup(string) slog.Handler { return h }

// logPatience is how long ExpectLog waits for its record.
const logPatience = time.Minute

// ExpectLog reads records until one at level whose message starts with
// prefix and returns it; its attributes must hold want (compared as
// strings). It fails the test when none comes within a minute.
func ExpectLog(t testing.TB, logs <-chan slog.Record, level slog.Level, prefix string, want map[string]string) slog.Record {
	t.Helper()
	timeout := time.NewTimer(logPatience)
	defer timeout.Stop()
	for {
		select {
		case r := <-logs:
			if r.Level != level || !strings.HasPrefix(r.Message, prefix) {
				continue
			}
			got := map[string]string{}
			r.Attrs(func(a slog.Attr) bool { got[a.Key] = a.Value.String(); return true })
			for k, v := range want {
				if got[k] != v {
					t.Fatalf("log %q: %s=%q, want %q (all: %v)", r.Message, k, got[k], v, got)
				}
			}
			t.Logf("%s %s %v", r.Level, r.Message, got)
			return r
		case <-timeout.C:
			t.Fatalf("no %s log %q within %s", level, prefix, logPatience)
		}
	}
}
