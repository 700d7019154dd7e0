package schedule

import (
	"log/slog"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/robfig/cron/v3"

	"github.com/addon-actors/addon-operator/hook/bctx"
	"github.com/addon-actors/addon-operator/hook/bindings"
	"github.com/addon-actors/addon-operator/hookexec/hookconfig"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/supervision"
)

// Options configures the schedule actor.
type Options struct {
	Clock supervision.Clock
	Log   *slog.Logger
	// Owner resolves a hook's owner (global, module/NAME), which gets the
	// HookEvents of its ticks; nil resolves owners as siblings (children
	// of the parent).
	Owner func(owner string) *actor.PID
}

// entry is one armed schedule binding.
type entry struct {
	owner string
	hook  messages.HookSchedule
	// sched is the binding's crontab, parsed.
	sched cron.Schedule
	timer supervision.Timer
	// due is the time the timer was armed for.
	due time.Time
}

// Actor is the schedule actor.
type Actor struct {
	opts    Options
	inputs  *inputs
	entries map[int]*entry
	byOwner map[string][]int
}

// inputs are what the owners told the actor. They outlive an instance:
// after a panic the guardian restarts the actor, which re-arms them, since
// no owner would send its schedules again.
type inputs struct {
	watches map[string]messages.WatchSchedules
	// next numbers entries across instances, so that a tick of a stopped
	// timer still in the mailbox fires no entry of the next instance.
	next int
}

// tick is delivered by the clock when an entry is due.
type tick struct{ ID int }

// New returns the producer of a schedule actor.
func New(opts Options) actor.Producer {
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	in := &inputs{watches: map[string]messages.WatchSchedules{}}
	return func() actor.Actor {
		return &Actor{opts: opts, inputs: in, entries: map[int]*entry{}, byOwner: map[string][]int{}}
	}
}

// Receive implements actor.Actor.
func (a *Actor) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		a.handleStarted(ctx)
	case messages.WatchSchedules:
		a.handleWatch(ctx, msg)
	case tick:
		a.handleTick(ctx, msg)
	case *actor.Stopping, *actor.Restarting:
		a.removeAll()
	}
}

// handleStarted re-arms the schedules after a restart.
func (a *Actor) handleStarted(ctx actor.Context) {
	a.opts.Owner = supervision.OrSiblings(a.opts.Owner, ctx)
	replay := func(w messages.WatchSchedules) { a.handleWatch(ctx, w) }
	if n := supervision.Replay(a.inputs.watches, replay); n > 0 {
		a.opts.Log.Info("schedules re-armed after a restart", "owners", n)
	}
}

func (a *Actor) handleWatch(ctx actor.Context, msg messages.WatchSchedules) {
	for _, id := range a.byOwner[msg.Owner] {
		a.remove(id)
	}
	delete(a.byOwner, msg.Owner)
	delete(a.inputs.watches, msg.Owner)
	if len(msg.Schedules) > 0 {
		a.inputs.watches[msg.Owner] = msg
	}
	for _, s := range msg.Schedules {
		sched, err := hookconfig.ParseCrontab(s.Binding.Crontab)
		if err != nil { // checked at --config time: only a hand-made message has one
			a.opts.Log.Error("bad crontab; schedule not armed", "owner", msg.Owner, "hook", s.Hook,
				"binding", s.Binding.Name, "crontab", s.Binding.Crontab, "err", err)
			continue
		}
		a.inputs.next++
		id := a.inputs.next
		e := &entry{owner: msg.Owner, hook: s, sched: sched}
		a.entries[id] = e
		a.byOwner[msg.Owner] = append(a.byOwner[msg.Owner], id)
		a.arm(ctx, id, e)
	}
	a.opts.Log.Debug("schedules set", "owner", msg.Owner, "count", len(msg.Schedules))
}

// arm sets the entry's timer for its next time after now, and after the
// time it last fired for: a wall clock set back (NTP) would otherwise
// fire that time twice.
func (a *Actor) arm(ctx actor.Context, id int, e *entry) {
	now := a.opts.Clock.Now()
	from := now
	if e.due.After(from) {
		from = e.due
	}
	next := e.sched.Next(from)
	if next.IsZero() {
		// robfig/cron gives up after five years: a crontab such as
		// `0 0 30 2 *` (Feb 30) is valid but matches no time. Arming
		// nothing is right; saying so spares someone a silent hook.
		a.opts.Log.Warn("schedule never fires: its crontab matches no time in the next five years",
			"owner", e.owner, "hook", e.hook.Hook, "binding", e.hook.Binding.Name, "crontab", e.hook.Binding.Crontab)
		return
	}
	e.due = next
	e.timer = supervision.Deliver(a.opts.Clock, ctx.ActorSystem().Root, ctx.Self(), tick{ID: id}, next.Sub(now))
}

func (a *Actor) remove(id int) {
	if e, ok := a.entries[id]; ok {
		if e.timer != nil {
			e.timer.Stop()
		}
		delete(a.entries, id)
	}
}

// removeAll removes every schedule: the actor stops or restarts (a restart
// re-arms them from the replayed watches).
func (a *Actor) removeAll() {
	for id := range a.entries {
		a.remove(id)
	}
}

func (a *Actor) handleTick(ctx actor.Context, t tick) {
	e, ok := a.entries[t.ID]
	if !ok {
		return
	}
	a.arm(ctx, t.ID, e)
	ctx.Send(a.opts.Owner(e.owner), event(e))
}

// event is the hook event of one tick, for the hook's owner to queue.
func event(e *entry) messages.HookEvent {
	b := e.hook.Binding
	return messages.HookEvent{Owner: e.owner, Hook: e.hook.Hook, Binding: b.Name, Queue: b.Queue,
		AllowFailure: b.AllowFailure, Source: "schedule " + b.Crontab, Context: context(e.hook.Version, b)}
}

// context is a tick's binding context. The snapshots it carries
// (includeSnapshotsFrom, or every kubernetes binding of its group) are a
// placeholder here: the owner fills them in just before the hook runs.
func context(v bindings.Version, b bindings.ScheduleBinding) []byte {
	if v == bindings.V0 {
		data, _ := bctx.MarshalV0([]bctx.V0Context{bctx.V0Binding(b.Name)})
		return data
	}
	if b.Group != "" {
		return bctx.Marshal([]bctx.Context{bctx.GroupContext(b.Name, b.Group, nil)})
	}
	var snapshots bctx.Snapshots
	if len(b.IncludeSnapshotsFrom) > 0 {
		snapshots = bctx.Snapshots{}
	}
	return bctx.Marshal([]bctx.Context{bctx.ScheduleTick(b.Name, snapshots)})
}
