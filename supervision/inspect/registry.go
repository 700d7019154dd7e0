package inspect

import (
	"sort"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"
)

// Clock is where the registry reads time: supervision.RealClock in
// production, the test's fake clock in tests. A clock that also has
// Since (the real one) is read through it.
type Clock interface {
	Now() time.Time
}

// sinceClock is a clock that measures time since an instant more cheaply
// than Now().Sub: supervision.RealClock reads only the monotonic clock.
type sinceClock interface {
	Since(time.Time) time.Duration
}

// Registry holds the records of the live actors of one actor system.
type Registry struct {
	clock Clock
	// base and elapsed time-stamp the start of every message cheaply: on the
	// real clock, elapsed reads only the monotonic clock (half the cost of
	// time.Now, and it is paid for every message).
	base    time.Time
	elapsed func() time.Duration

	mu     sync.RWMutex
	actors map[string]*record // by PID id (the actor's path)
}

// NewRegistry returns an empty registry that reads time from clock.
func NewRegistry(clock Clock) *Registry {
	r := &Registry{clock: clock, base: clock.Now(), actors: map[string]*record{}}
	r.elapsed = func() time.Duration { return r.clock.Now().Sub(r.base) }
	if c, ok := clock.(sinceClock); ok {
		r.elapsed = func() time.Duration { return c.Since(r.base) }
	}
	return r
}

// Mailbox returns an unbounded mailbox producer whose mailboxes record their
// actor in r under the given kind ("module", "queue", ...).
func (r *Registry) Mailbox(kind string) actor.MailboxProducer {
	inner := actor.Unbounded()
	return func() actor.Mailbox {
		return &mailbox{Mailbox: inner(), rec: &record{kind: kind}, reg: r}
	}
}

// Report publishes the actor's behaviour name and a short summary of its
// state. Actors call it from their own handlers after a change.
func (r *Registry) Report(pid *actor.PID, behaviour, summary string) {
	if rec := r.lookup(pid); rec != nil {
		rec.mu.Lock()
		rec.behaviour, rec.summary = behaviour, summary
		rec.mu.Unlock()
	}
}

// ReportError records an expected failure (a hook or helm error) as the
// actor's last error; nil clears it.
func (r *Registry) ReportError(pid *actor.PID, err error) {
	if rec := r.lookup(pid); rec != nil {
		rec.setError(err)
		rec.reported(err)
	}
}

func (r *Registry) lookup(pid *actor.PID) *record {
	if pid == nil {
		return nil
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.actors[pid.Id]
}

func (r *Registry) add(rec *record) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.actors[rec.path] = rec
}

func (r *Registry) remove(rec *record) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.actors[rec.path] == rec {
		delete(r.actors, rec.path)
	}
}

// Snapshot returns every live actor, sorted by path.
func (r *Registry) Snapshot() []ActorInfo {
	now := r.clock.Now()
	r.mu.RLock()
	out := make([]ActorInfo, 0, len(r.actors))
	for _, rec := range r.actors {
		// An actor that has just stopped may not have removed its record
		// yet; it is already gone from the process registry.
		if rec.alive() {
			out = append(out, rec.info(r.base, now))
		}
	}
	r.mu.RUnlock()
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	children := map[string][]string{}
	for _, a := range out {
		children[a.Parent] = append(children[a.Parent], a.Path)
	}
	for i := range out {
		out[i].Children = children[out[i].Path]
	}
	return out
}

// ActorInfo is one actor as the inspector sees it.
type ActorInfo struct {
	Path          string        `json:"path"`
	Kind          string        `json:"kind"`
	Parent        string        `json:"parent,omitempty"`
	Children      []string      `json:"children,omitempty"`
	MailboxLength int           `json:"mailboxLength"`
	HighWater     int64         `json:"highWater"`
	Processed     uint64        `json:"processed"`
	Current       string        `json:"current,omitempty"`
	CurrentFor    time.Duration `json:"currentFor,omitempty"`
	LastError     string        `json:"lastError,omitempty"`
	Restarts      int64         `json:"restarts"`
	Behaviour     string        `json:"behaviour,omitempty"`
	Summary       string        `json:"summary,omitempty"`
}
