package actortest

import (
	"context"
	"log/slog"
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
