package step

import (
	"context"
	"log/slog"
)

// Log is a record a core asks its shell to write: the level, the message
// and slog's key-value pairs.
type Log struct {
	Level slog.Level
	Msg   string
	Args  []any
}

// At is a Log at level.
func At(level slog.Level, msg string, args ...any) Log {
	return Log{Level: level, Msg: msg, Args: args}
}

// Write writes the record to log; a nil log drops it.
func (l Log) Write(log *slog.Logger) {
	if log == nil {
		return
	}
	log.Log(context.Background(), l.Level, l.Msg, l.Args...)
}
