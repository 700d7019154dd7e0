package supervision_test

import (
	"context"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/supervision"
)

var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func TestFakeClockFiresDueTimersInOrder(t *testing.T) {
	c := supervision.NewFakeClock(epoch)
	var fired []string
	at := map[string]time.Time{}
	record := func(name string) func() {
		return func() { fired = append(fired, name); at[name] = c.Now() }
	}
	c.AfterFunc(3*time.Second, record("c"))
	c.AfterFunc(time.Second, record("a"))
	c.AfterFunc(time.Second, record("a2")) // same due time: creation order
	stopped := c.AfterFunc(2*time.Second, record("stopped"))
	c.AfterFunc(10*time.Second, record("late"))
	if !stopped.Stop() {
		t.Fatal("Stop of a pending timer reported false")
	}

	c.Advance(999 * time.Millisecond)
	if len(fired) != 0 {
		t.Fatalf("fired %v before due", fired)
	}
	c.Advance(5 * time.Second)
	if got, want := len(fired), 3; got != want || fired[0] != "a" || fired[1] != "a2" || fired[2] != "c" {
		t.Fatalf("fired %v, want [a a2 c]", fired)
	}
	if !at["c"].Equal(epoch.Add(3 * time.Second)) {
		t.Fatalf("c saw Now()=%s, want its due time", at["c"])
	}
	if !c.Now().Equal(epoch.Add(5999 * time.Millisecond)) {
		t.Fatalf("Now()=%s after advancing 5.999s", c.Now())
	}
	if p := c.Pending(); len(p) != 1 || p[0] != 10*time.Second-5999*time.Millisecond {
		t.Fatalf("pending %v", p)
	}
}

func TestFakeClockTimerScheduledByCallbackFiresInSameAdvance(t *testing.T) {
	c := supervision.NewFakeClock(epoch)
	var n int
	var tick func()
	tick = func() {
		n++
		c.AfterFunc(time.Second, tick)
	}
	c.AfterFunc(time.Second, tick)
	c.Advance(5 * time.Second)
	if n != 5 {
		t.Fatalf("periodic timer fired %d times in 5s, want 5", n)
	}
}

func TestFakeClockWaitForTimers(t *testing.T) {
	c := supervision.NewFakeClock(epoch)
	done := make(chan error, 1)
	go func() { done <- c.WaitForTimers(context.Background(), 2) }()
	c.AfterFunc(time.Second, func() {})
	c.AfterFunc(time.Second, func() {})
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := c.WaitForTimers(ctx, 3); err == nil {
		t.Fatal("WaitForTimers with a cancelled context returned nil")
	}
}
