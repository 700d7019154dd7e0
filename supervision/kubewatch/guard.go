package kubewatch

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/addon-actors/addon-operator/supervision"
)

// Gauge is the number of watches that are down; a prometheus.Gauge is one.
type Gauge interface{ Add(float64) }

// Options configures a Guard.
type Options struct {
	Log *slog.Logger
	// What names the watch in its log records (owner, hook, binding, or
	// what it is for).
	What []any
	// Down, when set, is raised while the watch is down.
	Down Gauge
	// Failed, when set, is called for every failed call.
	Failed func(error)
	// Retry is the delay before each retry of a transient failure;
	// DefaultRetry when nil.
	Retry supervision.Policy
	Clock supervision.Clock
}

// DefaultRetry retries a quarter of a second after the first failure,
// then every second: a watch resumes within a second of the apiserver
// answering again.
var DefaultRetry = supervision.Exponential{Initial: 250 * time.Millisecond, Max: time.Second,
	Jitter: func(time.Duration) time.Duration { return 0 }}

// Guard is the state of one watch: up, or down since a time.
type Guard struct {
	opts    Options
	mu      sync.Mutex
	down    bool
	since   time.Time
	stopped bool
}

// New returns the Guard of a watch that runs until ctx is done; a watch
// stopped while down leaves the gauge.
func New(ctx context.Context, opts Options) *Guard {
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	if opts.Retry == nil {
		opts.Retry = DefaultRetry
	}
	if opts.Clock == nil {
		opts.Clock = supervision.RealClock{}
	}
	g := &Guard{opts: opts}
	context.AfterFunc(ctx, g.stop)
	return g
}

// Do runs call, retrying transient failures until it succeeds or ctx is
// done; it returns any other failure. verb is "list" or "watch": a failed
// call marks the watch down, a successful watch call (only) marks it up.
func Do[T any](ctx context.Context, g *Guard, verb string, call func(context.Context) (T, error)) (T, error) {
	for attempt := 1; ; attempt++ {
		v, err := call(ctx)
		if err == nil {
			if verb == "watch" {
				g.resumed()
			}
			return v, nil
		}
		if ctx.Err() != nil {
			return v, err
		}
		g.failed(verb, err)
		if !Transient(err) {
			return v, err
		}
		if !g.wait(ctx, g.opts.Retry.Delay(attempt)) {
			return v, err
		}
	}
}

// wait sleeps d on the guard's clock; false when ctx is done first.
func (g *Guard) wait(ctx context.Context, d time.Duration) bool {
	return supervision.Sleep(ctx, g.opts.Clock, d)
}

// failed counts a failed call and marks the watch down, with a warning the
// first time.
func (g *Guard) failed(verb string, err error) {
	if g.opts.Failed != nil {
		g.opts.Failed(err)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.down || g.stopped {
		return
	}
	g.down, g.since = true, g.opts.Clock.Now()
	g.add(1)
	g.opts.Log.Warn("watch dropped: cannot "+verb+"; retrying", append(g.opts.What, "err", err)...)
}

// resumed marks the watch up, with a warning telling how long it was down.
func (g *Guard) resumed() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.down || g.stopped {
		return
	}
	g.down = false
	g.add(-1)
	down := g.opts.Clock.Now().Sub(g.since)
	g.opts.Log.Warn("watch resumed", append(g.opts.What, "down", down.Round(time.Millisecond).String(),
		"down_seconds", down.Seconds())...)
}

func (g *Guard) stop() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.down {
		g.add(-1)
	}
	g.down, g.stopped = false, true
}

func (g *Guard) add(d float64) {
	if g.opts.Down != nil {
		g.opts.Down.Add(d)
	}
}

// Down tells whether the watch is down.
func (g *Guard) Down() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.down
}
