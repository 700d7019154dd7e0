package inspect

import (
	"fmt"
	"strings"
	"time"
)

// History returns the last messages (up to HistorySize) the actor at path
// handled, oldest first; false when no live actor has that path.
func (r *Registry) History(path string) ([]Entry, bool) {
	r.mu.RLock()
	rec := r.actors[path]
	r.mu.RUnlock()
	if rec == nil || !rec.alive() {
		return nil, false
	}
	return entries(rec.history.last(HistorySize), r.base), true
}

// LastHandled is the panic log's view of an actor's flight recorder: its
// last n entries, oldest first, one line each. It implements
// supervision.FlightRecorder.
func (r *Registry) LastHandled(path string, n int) []string {
	r.mu.RLock()
	rec := r.actors[path]
	r.mu.RUnlock()
	if rec == nil {
		return nil
	}
	out := []string{}
	for _, e := range entries(rec.history.last(n), r.base) {
		out = append(out, e.Line())
	}
	return out
}

func entries(slots []slot, base time.Time) []Entry {
	out := make([]Entry, len(slots))
	for i, s := range slots {
		out[i] = s.entry(base)
	}
	return out
}

// Line is the entry on one line: time, duration, outcome, summary (and the
// type when the summary is not it), error.
func (e Entry) Line() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s %s %s", e.At.Format("15:04:05.000"), e.Duration, e.Outcome, e.Summary)
	if e.Summary != e.Type {
		fmt.Fprintf(&b, " (%s)", e.Type)
	}
	if e.Error != "" {
		fmt.Fprintf(&b, ": %s", e.Error)
	}
	return b.String()
}
