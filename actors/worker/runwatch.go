package worker

import (
	"log/slog"
	"sync"
	"time"

	"github.com/addon-actors/addon-operator/supervision"
)

// LongRunMessage is the message of the warning about a hook run that is
// still going after the threshold (and after each doubling of it).
const LongRunMessage = "hook still running"

// RunWatch follows the hook runs in progress, for every owner's worker: a
// run that passes the threshold is logged at WARN, again each time its
// running time doubles (1m, 2m, 4m...), and the running time of the oldest
// run of each queue is read for a gauge. Time is the injected clock's.
// Safe for concurrent use: each worker runs in its own goroutine.
type RunWatch struct {
	clock     supervision.Clock
	log       *slog.Logger
	threshold time.Duration // 0: no warnings
	mu        sync.Mutex
	runs      map[*watchedRun]struct{}
	queues    map[string]struct{} // every queue seen: an idle one reads 0
}

// RunLabels say what a run is: its hook, module (empty for a global hook),
// binding and queue.
type RunLabels struct {
	Module, Hook, Binding, Queue string
}

type watchedRun struct {
	labels RunLabels
	start  time.Time
	timer  supervision.Timer
}

// NewRunWatch returns a watch that warns after threshold (0: never).
func NewRunWatch(clock supervision.Clock, log *slog.Logger, threshold time.Duration) *RunWatch {
	return &RunWatch{clock: clock, log: log, threshold: threshold,
		runs: map[*watchedRun]struct{}{}, queues: map[string]struct{}{}}
}

// Begin starts watching a run; the returned func ends it. A nil watch
// watches nothing.
func (w *RunWatch) Begin(l RunLabels) (end func()) {
	if w == nil {
		return func() {}
	}
	r := &watchedRun{labels: l, start: w.clock.Now()}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.runs[r] = struct{}{}
	w.queues[l.Queue] = struct{}{}
	if w.threshold > 0 {
		r.timer = w.clock.AfterFunc(w.threshold, func() { w.warn(r, w.threshold) })
	}
	return func() { w.end(r) }
}

func (w *RunWatch) end(r *watchedRun) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.runs, r)
	if r.timer != nil {
		r.timer.Stop()
	}
}

// warn logs a run that is still going after `after`, and schedules the
// next warning when its running time has doubled.
func (w *RunWatch) warn(r *watchedRun, after time.Duration) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, running := w.runs[r]; !running {
		return
	}
	attrs := []any{slog.String("hook", r.labels.Hook)}
	if r.labels.Module != "" {
		attrs = append(attrs, slog.String("module", r.labels.Module))
	}
	attrs = append(attrs, slog.String("binding", r.labels.Binding), slog.String("queue", r.labels.Queue),
		slog.String("running_for", w.clock.Now().Sub(r.start).Round(time.Second).String()), slog.Time("started", r.start))
	w.log.Warn(LongRunMessage, attrs...)
	r.timer = w.clock.AfterFunc(after, func() { w.warn(r, 2*after) })
}

// Oldest returns, for every queue a run was seen in, how long its oldest
// run in progress has been running (0: none).
func (w *RunWatch) Oldest() map[string]time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	now := w.clock.Now()
	out := make(map[string]time.Duration, len(w.queues))
	for q := range w.queues {
		out[q] = 0
	}
	for r := range w.runs {
		out[r.labels.Queue] = max(out[r.labels.Queue], now.Sub(r.start))
	}
	return out
}
