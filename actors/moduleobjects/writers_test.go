package moduleobjects

import (
	"sync/atomic"
	"testing"
)

// TestWritersRunAtMostMaxInOrder: ten calls on two writers, each held
// until released one at a time: two start at once, then each release
// starts the next call in the order they came, and never more than two
// run.
func TestWritersRunAtMostMaxInOrder(t *testing.T) {
	w := &writers{max: 2}
	var running, peak atomic.Int32
	started, release, finished := make(chan int), make(chan struct{}), make(chan struct{}, 10)
	for i := range 10 {
		w.do(func() {
			n := running.Add(1)
			for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
			}
			started <- i
			<-release
			running.Add(-1)
			finished <- struct{}{}
		})
	}
	if a, b := <-started, <-started; a+b != 1 {
		t.Fatalf("the first two calls to start are %d and %d, want 0 and 1", a, b)
	}
	for next := 2; next < 10; next++ {
		release <- struct{}{}
		if got := <-started; got != next {
			t.Fatalf("call %d started after a release, want %d (the order they came)", got, next)
		}
	}
	for range 2 {
		release <- struct{}{}
	}
	for range 10 {
		<-finished
	}
	if p := peak.Load(); p != 2 {
		t.Errorf("at most %d calls ran at once, want 2", p)
	}
}
