package moduleobjects

import "sync"

// writers runs the apiserver calls of the effects at most max at once, in
// the order they came. The client's rate limit paces them anyway; a
// goroutine per call held a stack of its own (~16 KB) for each of a
// thousand Module objects waiting for the limiter after the first
// converge, where a waiting call here is a closure in a queue.
type writers struct {
	max     int
	mu      sync.Mutex
	queue   []func()
	running int
}

// maxWriters bounds the concurrent calls: above the client's burst, which
// the limiter lets through at once.
const maxWriters = 16

// do runs call on a free writer, or queues it for the next one free.
func (w *writers) do(call func()) {
	w.mu.Lock()
	if w.running < max(w.max, 1) {
		w.running++
		w.mu.Unlock()
		go w.loop(call)
		return
	}
	w.queue = append(w.queue, call)
	w.mu.Unlock()
}

// loop runs call, then the queued calls, until the queue is empty.
func (w *writers) loop(call func()) {
	for call != nil {
		call()
		w.mu.Lock()
		call = nil
		if len(w.queue) > 0 {
			call, w.queue[0] = w.queue[0], nil
			w.queue = w.queue[1:]
		} else {
			w.running--
		}
		w.mu.Unlock()
	}
}
