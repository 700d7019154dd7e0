package supervision

import (
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"
)

// Guardian is the strategy for panics, which are bugs: it restarts the
// actor (the producer builds a fresh instance, which re-reads its durable
// inputs when it receives *actor.Started), logs the panic, and publishes
// ActorRestarted on the system's event stream. An actor that panics
// more than MaxRestarts times within Window is stopped instead and
// ActorGaveUp is published, so a panic in Started cannot spin.
//
// Use it with actor.WithGuardian for top-level actors and with
// actor.WithSupervisor on a parent for its children.
type Guardian struct {
	log         *slog.Logger
	clock       Clock
	history     FlightRecorder
	maxRestarts int
	window      time.Duration

	mu       sync.Mutex
	failures map[string][]time.Time
}

// GuardianOptions configures NewGuardian; zero values take the defaults
// (10 restarts within a minute).
type GuardianOptions struct {
	MaxRestarts int
	Window      time.Duration
	// History, when set, adds the actor's last handled messages to the
	// panic's log record (the inspector's flight recorder).
	History FlightRecorder
}

// FlightRecorder gives an actor's last n handled messages, oldest first,
// one line each.
type FlightRecorder interface {
	LastHandled(actor string, n int) []string
}

// panicHistory is how many handled messages a panic's log record shows.
const panicHistory = 16

// NewGuardian returns a restart strategy that logs to log and reads time
// from clock.
func NewGuardian(log *slog.Logger, clock Clock, opts GuardianOptions) *Guardian {
	if opts.MaxRestarts <= 0 {
		opts.MaxRestarts = 10
	}
	if opts.Window <= 0 {
		opts.Window = time.Minute
	}
	return &Guardian{log: log, clock: clock, history: opts.History, maxRestarts: opts.MaxRestarts,
		window: opts.Window, failures: map[string][]time.Time{}}
}

// HandleFailure implements actor.SupervisorStrategy.
func (g *Guardian) HandleFailure(system *actor.ActorSystem, sup actor.Supervisor, child *actor.PID,
	_ *actor.RestartStatistics, reason interface{}, message interface{}) {
	n := g.recordFailure(child.Id)
	msgType := fmt.Sprintf("%T", actor.UnwrapEnvelopeMessage(message))
	why := fmt.Sprint(reason)
	if n > g.maxRestarts {
		g.log.Error("actor keeps panicking; stopping it", "actor", child.Id, "panic", why,
			"message", msgType, "restarts", n-1, "window", g.window, g.lastHandled(child.Id))
		system.EventStream.Publish(ActorGaveUp{Actor: child.Id, Reason: why, Restarts: n - 1})
		sup.StopChildren(child)
		return
	}
	g.log.Error("actor panicked; restarting it", "actor", child.Id, "panic", why,
		"message", msgType, "restarts", n, g.lastHandled(child.Id))
	system.EventStream.Publish(ActorRestarted{Actor: child.Id, Reason: why, Message: msgType, Restarts: n})
	sup.RestartChildren(child)
}

// lastHandled is the log attribute "history": the actor's last handled
// messages, the one that panicked last.
func (g *Guardian) lastHandled(id string) slog.Attr {
	if g.history == nil {
		return slog.Attr{}
	}
	return slog.Any("history", g.history.LastHandled(id, panicHistory))
}

// recordFailure returns how many failures the actor had within the window,
// this one included.
func (g *Guardian) recordFailure(id string) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	now := g.clock.Now()
	for key, times := range g.failures {
		g.failures[key] = recent(times, now.Add(-g.window))
		if len(g.failures[key]) == 0 && key != id {
			delete(g.failures, key)
		}
	}
	g.failures[id] = append(g.failures[id], now)
	return len(g.failures[id])
}

func recent(times []time.Time, since time.Time) []time.Time {
	i := 0
	for i < len(times) && times[i].Before(since) {
		i++
	}
	return times[i:]
}
