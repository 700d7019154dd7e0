package schedule_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"reflect"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/actors/schedule"
	"github.com/addon-actors/addon-operator/hook/bindings"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/supervision"
	"github.com/addon-actors/addon-operator/test/actortest"

	"github.com/addon-actors/addon-operator/hookexec/hookconfig"
)

// wait bounds every wait for a message or a timer.
const wait = 10 * time.Second

// schedulesOf parses a hook's binding configuration and returns its
// schedule bindings as the owner actor sends them.
func schedulesOf(t *testing.T, hook, config string) []messages.HookSchedule {
	t.Helper()
	cfg, err := hookconfig.Parse([]byte(config), bindings.ScopeGlobal)
	if err != nil {
		t.Fatalf("parse %s: %v", config, err)
	}
	out := make([]messages.HookSchedule, 0, len(cfg.Schedules))
	for _, b := range cfg.Schedules {
		out = append(out, messages.HookSchedule{Hook: hook, Version: cfg.Version, Binding: b})
	}
	return out
}

// fixture is a schedule actor whose runs go to a probe.
type fixture struct {
	kit   *actortest.Kit
	queue *actortest.Probe
	pid   *actor.PID
	logs  chan slog.Record
}

// newFixture spawns the schedule actor; with sync it handles each message
// (and each timer the fake clock fires) before the send returns.
func newFixture(t *testing.T, sync bool) *fixture {
	kit := actortest.New(t)
	f := &fixture{kit: kit, queue: kit.NewProbe(), logs: make(chan slog.Record, 256)}
	var opts []actor.PropsOption
	if sync {
		opts = append(opts, actortest.Sync())
	}
	f.pid = kit.Spawn("schedule", schedule.New(schedule.Options{Clock: kit.Clock, Owner: actortest.EveryOwner(f.queue.PID),
		Log: slog.New(actortest.LogHandler(f.logs))}), opts...)
	return f
}

// pending fails unless the armed timers are due in exactly want.
func (f *fixture) pending(t *testing.T, want ...time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	if err := f.kit.Clock.WaitForTimers(ctx, len(want)); err != nil {
		t.Fatal(err)
	}
	if got := f.kit.Clock.Pending(); !slices.Equal(got, want) {
		t.Fatalf("timers due in %v, want %v", got, want)
	}
}

// run receives one queued run: an Enqueue of exactly one task.
func (f *fixture) run(t *testing.T) messages.Task {
	t.Helper()
	msg := expectTask(f.queue, wait)
	if len(msg.Tasks) != 1 {
		t.Fatalf("Enqueue of %d tasks, want 1: %+v", len(msg.Tasks), msg.Tasks)
	}
	return msg.Tasks[0]
}

// bindingOf decodes a v1 Schedule binding context of one element.
func bindingOf(t *testing.T, task messages.Task) string {
	t.Helper()
	var ctxs []map[string]any
	if err := json.Unmarshal(task.Context, &ctxs); err != nil {
		t.Fatalf("binding context %s: %v", task.Context, err)
	}
	want := map[string]any{"binding": task.Binding, "type": "Schedule"}
	if len(ctxs) != 1 || !reflect.DeepEqual(ctxs[0], want) {
		t.Fatalf("binding context %s, want [%v]", task.Context, want)
	}
	return task.Binding
}

// A crontab with seconds fires every two fake seconds, each time queuing
// one run of the hook with a Schedule binding context named after the
// binding, in the binding's queue, with its allowFailure.
func TestSecondsCrontabFiresOnTime(t *testing.T) {
	f := newFixture(t, false)
	f.kit.Send(f.pid, messages.WatchSchedules{Owner: messages.OwnerGlobal, Schedules: schedulesOf(t, "every.sh",
		`{"configVersion":"v1","schedule":[{"name":"every2","crontab":"*/2 * * * * *","queue":"slow","allowFailure":true}]}`)})

	f.pending(t, 2*time.Second)
	f.kit.Clock.Advance(time.Second)
	f.pending(t, time.Second) // not yet due
	for i := range 3 {
		f.kit.Clock.Advance(time.Second)
		task := f.run(t)
		want := messages.Task{Queue: "slow", Kind: messages.TaskGlobalHook, Owner: messages.OwnerGlobal, Hook: "every.sh",
			Binding: "every2", AllowFailure: true, Reason: "schedule */2 * * * * *", Context: task.Context,
			Contexts: 1, MergeKey: "hook/global/every.sh", Compact: true, Event: true}
		if !reflect.DeepEqual(task, want) {
			t.Fatalf("tick %d: task %+v, want %+v", i, task, want)
		}
		bindingOf(t, task)
		f.pending(t, 2*time.Second) // re-armed for the next even second
		if i < 2 {
			f.kit.Clock.Advance(time.Second)
		}
	}
	f.queue.ExpectNoMessage(50 * time.Millisecond)
}

// An unnamed binding of a module hook is "schedule" in the main queue, a
// module hook run that is retried when it fails; a 5-field crontab counts
// minutes.
func TestFiveFieldCrontabUnnamedModuleHook(t *testing.T) {
	f := newFixture(t, false)
	owner := messages.ModuleOwner("foo")
	f.kit.Send(f.pid, messages.WatchSchedules{Owner: owner, Module: "foo",
		Schedules: schedulesOf(t, "hooks/tick", `{"configVersion":"v1","schedule":[{"crontab":"*/5 * * * *"}]}`)})

	f.pending(t, 5*time.Minute)
	f.kit.Clock.Advance(5 * time.Minute)
	task := f.run(t)
	if task.Kind != messages.TaskModuleHook || task.Owner != owner || task.Module != "foo" || task.Hook != "hooks/tick" ||
		task.Queue != messages.MainQueue || task.AllowFailure || bindingOf(t, task) != "schedule" {
		t.Fatalf("task %+v", task)
	}
	f.pending(t, 5*time.Minute)
}

// A hook without configVersion gets the older context {"binding": name}.
func TestV0Context(t *testing.T) {
	f := newFixture(t, true)
	f.kit.Send(f.pid, messages.WatchSchedules{Owner: messages.OwnerGlobal,
		Schedules: schedulesOf(t, "old.sh", `{"schedule":[{"name":"nightly","crontab":"0 3 * * *"}]}`)})
	f.pending(t, 3*time.Hour)
	f.kit.Clock.Advance(3 * time.Hour)
	if task := f.run(t); string(task.Context) != `[{"binding":"nightly"}]` {
		t.Fatalf("v0 context %s", task.Context)
	}
}

// A tick that carries snapshots (includeSnapshotsFrom) or belongs to a
// group (a Group context, spec/UPSTREAM.md §8.4) marks them with an empty
// map: the owner fills in the objects as they are when the hook starts.
func TestSnapshotAndGroupContexts(t *testing.T) {
	f := newFixture(t, true)
	f.kit.Send(f.pid, messages.WatchSchedules{Owner: messages.OwnerGlobal, Schedules: schedulesOf(t, "s.sh",
		`{"configVersion":"v1","kubernetes":[{"name":"pods","kind":"Pod","group":"g"}],"schedule":[`+
			`{"name":"inc","crontab":"0 * * * *","includeSnapshotsFrom":["pods"]},{"name":"grp","crontab":"0 * * * *","group":"g"}]}`)})
	f.kit.Clock.Advance(time.Hour)
	got := map[string]string{}
	for range 2 {
		task := f.run(t)
		got[task.Binding] = string(task.Context)
	}
	want := map[string]string{
		"inc": `[{"binding":"inc","type":"Schedule","snapshots":{}}]`,
		"grp": `[{"binding":"grp","type":"Group","groupName":"g","snapshots":{}}]`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("contexts %v, want %v", got, want)
	}
}

// Several bindings, of one hook and of two owners, each fire on their own
// crontab; when two are due at once both run.
func TestSeveralBindings(t *testing.T) {
	f := newFixture(t, true)
	f.kit.Send(f.pid, messages.WatchSchedules{Owner: messages.OwnerGlobal, Schedules: schedulesOf(t, "a.sh",
		`{"configVersion":"v1","schedule":[{"name":"two","crontab":"*/2 * * * * *"},{"name":"three","crontab":"*/3 * * * * *"}]}`)})
	f.kit.Send(f.pid, messages.WatchSchedules{Owner: messages.ModuleOwner("m"), Module: "m", Schedules: schedulesOf(t, "b.sh",
		`{"configVersion":"v1","schedule":[{"name":"five","crontab":"*/5 * * * * *"}]}`)})
	f.pending(t, 2*time.Second, 3*time.Second, 5*time.Second)

	want := map[int][]string{2: {"a.sh/two"}, 3: {"a.sh/three"}, 4: {"a.sh/two"}, 5: {"b.sh/five"}, 6: {"a.sh/three", "a.sh/two"}}
	for second := 1; second <= 6; second++ {
		f.kit.Clock.Advance(time.Second) // the actor handles each tick within Advance
		var got []string
		for range want[second] {
			task := f.run(t)
			got = append(got, task.Hook+"/"+bindingOf(t, task))
		}
		slices.Sort(got)
		if !slices.Equal(got, want[second]) {
			t.Fatalf("second %d: ran %v, want %v", second, got, want[second])
		}
		f.queue.ExpectNoMessage(20 * time.Millisecond)
	}
	f.pending(t, 2*time.Second, 3*time.Second, 4*time.Second)
}

// Replacing an owner's schedules by none stops its timers; another owner's
// keep firing; replacing them by others arms only the new ones.
func TestRemovedSchedulesStop(t *testing.T) {
	f := newFixture(t, true)
	mod := messages.ModuleOwner("m")
	f.kit.Send(f.pid, messages.WatchSchedules{Owner: mod, Module: "m",
		Schedules: schedulesOf(t, "m.sh", `{"configVersion":"v1","schedule":[{"crontab":"*/2 * * * * *"}]}`)})
	f.kit.Send(f.pid, messages.WatchSchedules{Owner: messages.OwnerGlobal,
		Schedules: schedulesOf(t, "g.sh", `{"configVersion":"v1","schedule":[{"crontab":"*/3 * * * * *"}]}`)})
	f.kit.Clock.Advance(2 * time.Second)
	if task := f.run(t); task.Owner != mod {
		t.Fatalf("first run %+v, want module m's", task)
	}

	f.kit.Send(f.pid, messages.WatchSchedules{Owner: mod, Module: "m"}) // disabled
	f.pending(t, time.Second)                                           // only global's, at 3s
	f.kit.Clock.Advance(time.Second)
	if task := f.run(t); task.Owner != messages.OwnerGlobal {
		t.Fatalf("run %+v after the module's schedules were removed", task)
	}
	f.kit.Clock.Advance(time.Second) // module m's 4s passes
	f.queue.ExpectNoMessage(20 * time.Millisecond)
	f.pending(t, 2*time.Second)

	f.kit.Send(f.pid, messages.WatchSchedules{Owner: messages.OwnerGlobal,
		Schedules: schedulesOf(t, "g.sh", `{"configVersion":"v1","schedule":[{"crontab":"0 * * * * *"}]}`)})
	f.pending(t, 56*time.Second) // now 00:00:04; the */3 timer is gone
}

// A valid crontab that matches no time (Feb 30) arms no timer, queues
// nothing, and is logged as a warning naming the hook and binding; the
// hook's other bindings work.
func TestCrontabThatNeverFires(t *testing.T) {
	f := newFixture(t, true)
	f.kit.Send(f.pid, messages.WatchSchedules{Owner: messages.OwnerGlobal, Schedules: schedulesOf(t, "feb.sh",
		`{"configVersion":"v1","schedule":[{"name":"feb30","crontab":"0 0 30 2 *"},{"name":"hourly","crontab":"0 * * * *"}]}`)})
	actortest.ExpectLog(t, f.logs, slog.LevelWarn, "schedule never fires",
		map[string]string{"owner": "global", "hook": "feb.sh", "binding": "feb30", "crontab": "0 0 30 2 *"})
	f.pending(t, time.Hour)
	f.kit.Clock.Advance(time.Hour)
	if b := bindingOf(t, f.run(t)); b != "hourly" {
		t.Fatalf("ran binding %q", b)
	}
	f.pending(t, time.Hour)
}

// A schedule actor that panics is restarted by the guardian with every
// owner's schedules armed again, since no owner sends them twice; the
// ticks of the timers it had keep their rhythm and fire once.
func TestSchedulesSurviveARestart(t *testing.T) {
	kit := actortest.New(t)
	queue := kit.NewProbe()
	logs := make(chan slog.Record, 256)
	log := slog.New(&panicOnce{LogHandler: logs, message: "schedules set", owner: "module/boom"})
	pid := kit.Spawn("schedule", schedule.New(schedule.Options{Clock: kit.Clock, Owner: actortest.EveryOwner(queue.PID), Log: log}))
	kit.Send(pid, messages.WatchSchedules{Owner: messages.OwnerGlobal,
		Schedules: schedulesOf(t, "g.sh", `{"configVersion":"v1","schedule":[{"name":"g","crontab":"*/2 * * * * *"}]}`)})
	kit.Send(pid, messages.WatchSchedules{Owner: "module/boom", Module: "boom", // panics in its log line
		Schedules: schedulesOf(t, "b.sh", `{"configVersion":"v1","schedule":[{"name":"b","crontab":"*/3 * * * * *"}]}`)})

	actortest.ExpectLog(t, logs, slog.LevelInfo, "schedules re-armed after a restart", map[string]string{"owners": "2"})
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	if err := kit.Clock.WaitForTimers(ctx, 2); err != nil {
		t.Fatal(err)
	}
	if got := kit.Clock.Pending(); !slices.Equal(got, []time.Duration{2 * time.Second, 3 * time.Second}) {
		t.Fatalf("timers due in %v after the restart, want 2s and 3s", got)
	}
	kit.Clock.Advance(2 * time.Second)
	if task := expectTask(queue, wait).Tasks[0]; task.Binding != "g" {
		t.Fatalf("ran %+v, want binding g", task)
	}
	kit.Clock.Advance(time.Second)
	if task := expectTask(queue, wait).Tasks[0]; task.Binding != "b" || task.Module != "boom" {
		t.Fatalf("ran %+v, want module boom's binding b", task)
	}
	queue.ExpectNoMessage(20 * time.Millisecond)
}

// panicOnce records like actortest.LogHandler, and panics the first time it logs
// message for owner.
type panicOnce struct {
	actortest.LogHandler
	message, owner string
	done           atomic.Bool
}

func (h *panicOnce) Enabled(context.Context, slog.Level) bool { return true }

func (h *panicOnce) Handle(ctx context.Context, r slog.Record) error {
	if r.Message == h.message && !h.done.Load() {
		owner := ""
		r.Attrs(func(a slog.Attr) bool {
			if a.Key == "owner" {
				owner = a.Value.String()
			}
			return true
		})
		if owner == h.owner && h.done.CompareAndSwap(false, true) {
			panic("test: log handler panics once")
		}
	}
	return h.LogHandler.Handle(ctx, r)
}

// skewedClock is the kit's fake clock read through a wall clock that can be
// set back.
type skewedClock struct {
	*supervision.FakeClock
	back atomic.Int64 // nanoseconds
}

func (c *skewedClock) Now() time.Time {
	return c.FakeClock.Now().Add(-time.Duration(c.back.Load()))
}

// A wall clock set back (NTP) just before a tick does not fire that tick's
// time a second time: the next one is the crontab's next time after it.
func TestWallClockSetBackDoesNotFireTwice(t *testing.T) {
	kit := actortest.New(t)
	queue := kit.NewProbe()
	clock := &skewedClock{FakeClock: kit.Clock}
	pid := kit.Spawn("schedule", schedule.New(schedule.Options{Clock: clock, Owner: actortest.EveryOwner(queue.PID)}), actortest.Sync())
	kit.Send(pid, messages.WatchSchedules{Owner: messages.OwnerGlobal,
		Schedules: schedulesOf(t, "h.sh", `{"configVersion":"v1","schedule":[{"crontab":"*/2 * * * * *"}]}`)})
	if got := kit.Clock.Pending(); !slices.Equal(got, []time.Duration{2 * time.Second}) {
		t.Fatalf("timers due in %v", got)
	}
	clock.back.Store(int64(500 * time.Millisecond))
	kit.Clock.Advance(2 * time.Second) // the wall clock reads 00:00:01.5
	expectTask(queue, wait)
	// 00:00:04 on the wall clock is 2.5 s away.
	if got := kit.Clock.Pending(); !slices.Equal(got, []time.Duration{2500 * time.Millisecond}) {
		t.Fatalf("after the tick of 00:00:02 timers are due in %v, want 2.5s (00:00:04)", got)
	}
	kit.Clock.Advance(2500 * time.Millisecond)
	expectTask(queue, wait)
	queue.ExpectNoMessage(20 * time.Millisecond)
}

// expectTask waits for the next HookEvent the owner probe gets and returns
// what the owner queues for it (hookrun.TaskOf, the one place an event
// becomes a task), so that a test checks the task its event becomes.
func expectTask(p *actortest.Probe, timeout time.Duration) messages.Enqueue {
	ev := actortest.Expect[messages.HookEvent](p, timeout)
	return messages.Enqueue{Tasks: []messages.Task{hookrun.TaskOf(ev)}}
}
