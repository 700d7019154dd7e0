package inspect

import (
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"
	"time"
)

// record is the inspector's view of one actor. Counters are atomics written
// by the mailbox; the rest sits behind mu.
type record struct {
	kind   string
	path   string
	parent string
	length func() int
	// alive reports whether the actor is still in its system's process
	// registry, which protoactor leaves before it tells anyone (the parent,
	// watchers) that the actor has stopped.
	alive func() bool

	highWater atomic.Int64
	processed atomic.Uint64
	restarts  atomic.Int64
	// The message being handled: busy, its type and since when (time after
	// the registry's base). They are written for every message, so they are
	// atomics, and the type is stored only when it differs from the last
	// message's (lastType is touched only by the actor's goroutine).
	busy     atomic.Bool
	current  atomic.Pointer[reflect.Type]
	since    atomic.Int64
	lastType reflect.Type
	// started is when the message being handled began (actor's goroutine
	// only); errReported is an error the handler reported while handling it.
	started time.Duration
	// lastEnd is when the last message ended, usable as the next one's
	// start while lastEndUsable (the next one was already waiting then).
	lastEnd       time.Duration
	lastEndUsable bool
	errReported   atomic.Pointer[string]
	history       ring

	mu        sync.Mutex
	lastError string
	behaviour string
	summary   string
}

func (r *record) observeLength(n int) {
	for {
		hw := r.highWater.Load()
		if int64(n) <= hw || r.highWater.CompareAndSwap(hw, int64(n)) {
			return
		}
	}
}

func (r *record) begin(msg interface{}, elapsed time.Duration) {
	r.started = elapsed
	r.since.Store(int64(elapsed))
	if t := reflect.TypeOf(msg); t != r.lastType {
		r.lastType = t
		// A fresh pointer only on a change of type: taking t's address
		// outside this branch would move t to the heap for every message.
		p := new(reflect.Type)
		*p = t
		r.current.Store(p)
	}
	r.busy.Store(true)
}

// end records the message just handled in the flight recorder.
func (r *record) end(msg interface{}, elapsed time.Duration) {
	r.busy.Store(false)
	r.processed.Add(1)
	s := slot{typ: r.lastType, summary: summaryOf(msg), start: r.started, dur: elapsed - r.started}
	if r.errReported.Load() != nil {
		if err := r.errReported.Swap(nil); err != nil {
			s.outcome, s.err = OutcomeError, *err
		}
	}
	r.history.put(s)
}

func (r *record) startedWhenLastEnded() (time.Duration, bool) {
	usable := r.lastEndUsable
	r.lastEndUsable = false
	return r.lastEnd, usable
}

func (r *record) nextMayStartAt(end time.Duration, waiting bool) {
	r.lastEnd, r.lastEndUsable = end, waiting
}

// failed ends a message whose handler panicked.
// A system message (Started, Restarting) that panicked was not begun: it
// is recorded with no duration.
func (r *record) failed(msg, reason interface{}, elapsed time.Duration) {
	if !r.busy.Swap(false) {
		r.started = elapsed
	}
	r.lastEndUsable = false
	r.processed.Add(1)
	r.errReported.Store(nil)
	err := fmt.Errorf("panic: %v", reason)
	r.setError(err)
	r.history.put(slot{typ: reflect.TypeOf(msg), summary: summaryOf(msg), start: r.started, dur: elapsed - r.started,
		outcome: OutcomePanic, err: bounded(err.Error(), errorMax)})
}

// handling returns the message type being handled, if any, and for how long.
// Read while the actor moves on, the pair may mix two messages; the
// inspector shows a moment, not a transaction.
func (r *record) handling(base, now time.Time) (string, time.Duration) {
	t := r.current.Load()
	if !r.busy.Load() || t == nil || *t == nil {
		return "", 0
	}
	return (*t).String(), now.Sub(base.Add(time.Duration(r.since.Load())))
}

func (r *record) setError(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err == nil {
		r.lastError = ""
		return
	}
	r.lastError = err.Error()
}

// reported marks the message being handled as failed with err (nil: no
// longer failed).
func (r *record) reported(err error) {
	if err == nil {
		r.errReported.Store(nil)
		return
	}
	msg := bounded(err.Error(), errorMax)
	r.errReported.Store(&msg)
}

func (r *record) info(base, now time.Time) ActorInfo {
	length := r.length()
	a := ActorInfo{
		Path: r.path, Kind: r.kind, Parent: r.parent,
		MailboxLength: length, HighWater: max(r.highWater.Load(), int64(length)),
		Processed: r.processed.Load(), Restarts: r.restarts.Load(),
	}
	a.Current, a.CurrentFor = r.handling(base, now)
	r.mu.Lock()
	defer r.mu.Unlock()
	a.LastError, a.Behaviour, a.Summary = r.lastError, r.behaviour, r.summary
	return a
}
