package supervision

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"time"
)

// FakeClock is a Clock that moves only when Advance is called. Due timers
// fire in the order of their due time (then of their creation), in the
// goroutine that calls Advance, so a test is deterministic.
type FakeClock struct {
	mu      sync.Mutex
	now     time.Time
	seq     uint64
	pending []*fakeTimer
	changed chan struct{} // closed and replaced whenever pending grows
}

type fakeTimer struct {
	clock *FakeClock
	due   time.Time
	seq   uint64
	f     func()
}

// NewFakeClock returns a fake clock that reads start.
func NewFakeClock(start time.Time) *FakeClock {
	return &FakeClock{now: start, changed: make(chan struct{})}
}

// Now returns the fake time.
func (c *FakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// AfterFunc registers f to run when the clock has been advanced by d.
// A non-positive d fires on the next Advance (even Advance(0)).
func (c *FakeClock) AfterFunc(d time.Duration, f func()) Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seq++
	t := &fakeTimer{clock: c, due: c.now.Add(d), seq: c.seq, f: f}
	c.pending = append(c.pending, t)
	close(c.changed)
	c.changed = make(chan struct{})
	return t
}

// Stop removes the timer if it has not fired.
func (t *fakeTimer) Stop() bool {
	c := t.clock
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, p := range c.pending {
		if p == t {
			c.pending = append(c.pending[:i], c.pending[i+1:]...)
			return true
		}
	}
	return false
}

// Advance moves the clock forward by d and fires every timer that is due,
// earliest first. A timer that a fired callback registers fires in the same
// call when it falls due within d.
func (c *FakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	target := c.now.Add(d)
	c.mu.Unlock()
	for {
		t := c.popDue(target)
		if t == nil {
			break
		}
		t.f()
	}
	c.mu.Lock()
	c.now = target
	c.mu.Unlock()
}

// popDue removes and returns the earliest timer due at or before target,
// setting the clock to its due time.
func (c *FakeClock) popDue(target time.Time) *fakeTimer {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.pending) == 0 {
		return nil
	}
	sort.Slice(c.pending, func(i, j int) bool {
		a, b := c.pending[i], c.pending[j]
		if !a.due.Equal(b.due) {
			return a.due.Before(b.due)
		}
		return a.seq < b.seq
	})
	t := c.pending[0]
	if t.due.After(target) {
		return nil
	}
	c.pending = c.pending[1:]
	if t.due.After(c.now) {
		c.now = t.due
	}
	return t
}

// Pending returns the delays, from now, of the timers not yet fired, in
// firing order.
func (c *FakeClock) Pending() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]time.Duration, 0, len(c.pending))
	for _, t := range c.pending {
		out = append(out, t.due.Sub(c.now))
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// WaitForTimers blocks until at least n timers are pending, so that a test
// advances time only after the actor under test has scheduled its timer.
func (c *FakeClock) WaitForTimers(ctx context.Context, n int) error {
	for {
		c.mu.Lock()
		have, changed := len(c.pending), c.changed
		c.mu.Unlock()
		if have >= n {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return fmt.Errorf("wait for %d pending timers (have %d): %w", n, have, ctx.Err())
		}
	}
}
