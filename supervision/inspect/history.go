package inspect

import (
	"reflect"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// HistorySize is how many handled messages each actor's flight recorder
// keeps; the oldest is overwritten first.
const HistorySize = 256

// Bounds on the strings one entry keeps alive: a longer summary or error is
// cut (and copied, so the long original can be freed).
const (
	summaryMax = 96
	errorMax   = 160
)

// Summarizer is implemented by messages that can say in a few words which
// one they are ("module foo: ModuleRun"). Messages without it are recorded
// by their type alone.
type Summarizer interface {
	Summary() string
}

// Outcome is how the handling of one message ended.
type Outcome uint8

const (
	OutcomeOK Outcome = iota
	// OutcomeError: the handler reported an error with Registry.ReportError.
	OutcomeError
	// OutcomePanic: the handler panicked; the guardian restarts the actor.
	OutcomePanic
)

func (o Outcome) String() string {
	switch o {
	case OutcomeError:
		return "error"
	case OutcomePanic:
		return "panic"
	}
	return "ok"
}

// Entry is one handled message as the flight recorder shows it.
type Entry struct {
	Type string `json:"type"`
	// Summary is the message's Summary(), else its type.
	Summary  string        `json:"summary"`
	At       time.Time     `json:"at"`
	Duration time.Duration `json:"duration"`
	Outcome  string        `json:"outcome"`
	Error    string        `json:"error,omitempty"`
}

// slot is one entry as it is stored: fixed size (72 bytes on 64-bit), no
// pointer the recorder allocates, so recording allocates nothing for a
// message without a long summary once the ring has grown.
type slot struct {
	typ     reflect.Type
	summary string
	err     string
	start   time.Duration // after the registry's base
	dur     time.Duration
	outcome Outcome
}

// ring is an actor's flight recorder: written by the actor's goroutine
// after each message, read by the debug API. The lock is uncontended
// except while a reader copies it out. Its slots grow by doubling up to
// HistorySize (most actors handle a few messages: a full ring for each
// would add 18 KB of heap per actor), then are reused: a handful of
// allocations in an actor's life, none per message.
type ring struct {
	mu      sync.Mutex
	written uint64
	slots   []slot
}

// firstSlots is the ring's first allocation.
const firstSlots = 8

func (r *ring) put(s slot) {
	r.mu.Lock()
	if r.written == uint64(len(r.slots)) && len(r.slots) < HistorySize {
		r.grow()
	}
	r.slots[r.written%HistorySize] = s
	r.written++
	r.mu.Unlock()
}

// grow doubles the slots; before the ring is full, slot i holds message i.
func (r *ring) grow() {
	bigger := make([]slot, max(firstSlots, min(2*len(r.slots), HistorySize)))
	copy(bigger, r.slots)
	r.slots = bigger
}

// last returns up to n of the newest slots, oldest first.
func (r *ring) last(n int) []slot {
	r.mu.Lock()
	defer r.mu.Unlock()
	n = min(n, int(min(r.written, HistorySize)))
	out := make([]slot, n)
	for i := range out {
		out[i] = r.slots[(r.written-uint64(n)+uint64(i))%HistorySize]
	}
	return out
}

// len is how many entries the ring holds.
func (r *ring) len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return int(min(r.written, HistorySize))
}

func (s slot) entry(base time.Time) Entry {
	e := Entry{Summary: s.summary, At: base.Add(s.start), Duration: s.dur, Outcome: s.outcome.String(), Error: s.err}
	if s.typ != nil {
		e.Type = s.typ.String()
	}
	if e.Summary == "" {
		e.Summary = e.Type
	}
	return e
}

// summaryOf is the message's own summary, bounded; "" when it has none.
func summaryOf(msg interface{}) string {
	if s, ok := msg.(Summarizer); ok {
		return bounded(s.Summary(), summaryMax)
	}
	return ""
}

// bounded cuts s to at most limit bytes on a rune boundary, its lines
// joined into one.
func bounded(s string, limit int) string {
	if strings.IndexByte(s, '\n') >= 0 {
		s = strings.Join(strings.Fields(s), " ")
	} else if len(s) <= limit {
		return s
	}
	if len(s) <= limit {
		return s
	}
	for limit > 0 && !utf8.RuneStart(s[limit]) {
		limit--
	}
	return strings.Clone(s[:limit])
}
