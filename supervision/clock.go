package supervision

import (
	"context"
	"time"
)

// Clock is the only source of time for decision code and for delayed
// delivery. Production uses RealClock; tests use FakeClock and move time by
// hand.
type Clock interface {
	Now() time.Time
	// AfterFunc calls f once, in its own goroutine for the real clock and in
	// the goroutine that advances a fake clock, after d has passed.
	AfterFunc(d time.Duration, f func()) Timer
}

// Timer is a pending AfterFunc call.
type Timer interface {
	// Stop prevents the call if it has not happened yet and reports whether
	// it did so.
	Stop() bool
}

// RealClock is the wall clock.
type RealClock struct{}

// Now returns the current wall-clock time.
func (RealClock) Now() time.Time { return time.Now() }

// AfterFunc schedules f on a runtime timer.
func (RealClock) AfterFunc(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }

// Since returns the time elapsed since t; for a t read from Now it reads
// only the monotonic clock, half the cost of Now.
func (RealClock) Since(t time.Time) time.Duration { return time.Since(t) }

// Sleep waits d on clock; false when ctx is done first.
func Sleep(ctx context.Context, clock Clock, d time.Duration) bool {
	fired := make(chan struct{})
	t := clock.AfterFunc(d, func() { close(fired) })
	defer t.Stop()
	select {
	case <-fired:
		return true
	case <-ctx.Done():
		return false
	}
}
