package queue

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/supervision"
	"github.com/addon-actors/addon-operator/test/actortest"
)

// effectText writes an effect as a test of Step expects it (a Log by its
// level and message).
func effectText(e Effect) string {
	switch e := e.(type) {
	case Run:
		s := fmt.Sprintf("Run %s #%d", describe(e.Task), e.Task.ID)
		if e.Task.Attempts > 0 {
			s += fmt.Sprintf(" after %d failed", e.Task.Attempts)
		}
		return s
	case Unwatch:
		return "Unwatch " + e.Owner
	case ArmRetry:
		return fmt.Sprintf("ArmRetry %s#%d in %s", e.Due.Queue, e.Due.ID, e.Delay)
	case Publish:
		return "Publish"
	case Log:
		return fmt.Sprintf("Log %s %s", e.Level, e.Msg)
	case TellDropped:
		return fmt.Sprintf("Dropped %s: %s", describe(e.Task), e.Err)
	case ReportGroup:
		return fmt.Sprintf("ReportGroup %d %s %s", e.Report.Group, e.Report.Module, e.Report.Outcome)
	case TellSuperseded:
		return fmt.Sprintf("Superseded by %s, %d dropped", describe(e.Msg.By), len(e.Msg.Dropped))
	}
	return fmt.Sprintf("unknown %T", e)
}

func globalHook(name string) messages.Task {
	return messages.Task{Kind: messages.TaskGlobalHook, Owner: messages.OwnerGlobal, Hook: name}
}

func allowFailure(t messages.Task) messages.Task { t.AllowFailure = true; return t }

func named(t messages.Task, queue string) messages.Task { t.Queue = queue; return t }

func asEvent(t messages.Task) messages.Task { t.Event = true; return t }

// grouped is a module run of the converge graph 9 in a parallel queue.
func grouped(module string) messages.Task {
	t := messages.NewModuleRun(module, "converge")
	t.Queue, t.Group = "parallel_queue_1", 9
	return t
}

func enqueued(tasks ...messages.Task) Enqueued { return Enqueued{Tasks: tasks} }

func done(queue string, id uint64, err string, next ...messages.Task) Finished {
	return Finished{Done: messages.TaskDone{Queue: queue, ID: id, Err: err, Next: next}}
}

// Each case steps a new core through the set-up events, then checks the
// effects of the last event. Task IDs count from 1 in the order queued.
func TestStep(t *testing.T) {
	const retrying, dropAllowed = "Log ERROR task failed; retrying", "Log WARN task failed; dropped as it allows failure"
	rerun := done("parallel_queue_1", 1, "")
	rerun.Done.Later = []messages.Task{messages.NewModuleRun("a", "values changed")}
	cases := []stepCase{
		{name: "a failed task stays at the head and its retry is armed", setup: []Event{enqueued(globalHook("a"), globalHook("b"))},
			ev:   done("main", 1, "exit 1"),
			want: []string{"Unwatch global", "Publish", retrying, "ArmRetry main#1 in 5s", "Publish"}},
		{name: "a failed allowFailure task is dropped and the next runs",
			setup: []Event{enqueued(allowFailure(globalHook("a")), globalHook("b"))},
			ev:    done("main", 1, "exit 1"),
			want: []string{"Unwatch global", dropAllowed, "Dropped main:GlobalHookRun:a: exit 1",
				"Run main:GlobalHookRun:b #2", "Publish"}},
		{name: "the retry due of the failed head runs it again", setup: []Event{enqueued(globalHook("a")), done("main", 1, "exit 1")},
			ev:   RetryDue{Queue: "main", ID: 1},
			want: []string{"Run main:GlobalHookRun:a #1 after 1 failed", "Publish"}},
		{name: "the retry due of a task that is not waiting finds nothing",
			setup: []Event{enqueued(globalHook("a")), done("main", 1, "exit 1")},
			ev:    RetryDue{Queue: "main", ID: 7}},
		{name: "the retry due of a replaced run finds nothing", setup: []Event{enqueued(messages.NewModuleRun("a", "converge")),
			done("main", 1, "exit 1"), enqueued(messages.NewModuleRun("a", "values changed"))},
			ev: RetryDue{Queue: "main", ID: 1}},
		{name: "a restarted owner's task is retried", setup: []Event{enqueued(globalHook("a"), globalHook("b"))},
			ev:   OwnerLost{ID: "global", Why: "owner restarted after a panic", Retry: true},
			want: []string{"Unwatch global", "Publish", retrying, "ArmRetry main#1 in 5s", "Publish"}},
		{name: "a restarted owner's tasks in three queues are all retried",
			setup: []Event{enqueued(globalHook("a"), named(globalHook("b"), "n1"), named(globalHook("c"), "n2"))},
			ev:    OwnerLost{ID: "global", Why: "owner restarted after a panic", Retry: true},
			want: []string{"Publish", retrying, "ArmRetry main#1 in 5s", "Publish", retrying, "ArmRetry n1#2 in 5s",
				"Unwatch global", "Publish", retrying, "ArmRetry n2#3 in 5s", "Publish"}},
		{name: "a stopped owner's task is dropped and the next runs", setup: []Event{enqueued(globalHook("a"), globalHook("b"))},
			ev: OwnerLost{ID: "global", Why: "owner stopped"},
			want: []string{"Unwatch global", "Log ERROR task dropped", "Dropped main:GlobalHookRun:a: owner stopped",
				"Run main:GlobalHookRun:b #2", "Publish"}},
		{name: "an owner lost that runs nothing changes nothing", setup: []Event{enqueued(globalHook("a"))},
			ev: OwnerLost{ID: "module/x", Why: "owner stopped"}, want: []string{"Publish"}},
		{name: "the next tasks of a done task run before the rest", setup: []Event{enqueued(globalHook("a"), globalHook("later"))},
			ev:   done("main", 1, "", globalHook("step1"), globalHook("step2")),
			want: []string{"Unwatch global", "Run main:GlobalHookRun:step1 #3", "Publish"}},
		{name: "the last task done leaves the queues idle", setup: []Event{enqueued(globalHook("a"))},
			ev: done("main", 1, ""), want: []string{"Unwatch global", "Publish", "Log INFO queues idle"}},
		{name: "a TaskDone for a task not running is only logged", setup: []Event{enqueued(globalHook("a"))},
			ev: done("main", 5, ""), want: []string{"Log WARN TaskDone for a task that is not running"}},
		{name: "a failed run of a graph steps aside and is reported", setup: []Event{enqueued(grouped("a"), grouped("b"))},
			ev: done("parallel_queue_1", 1, "exit 1"),
			want: []string{"Unwatch module/a", "Publish", retrying, "ArmRetry parallel_queue_1#1 in 5s",
				"Run parallel_queue_1:ModuleRun:b #2", "Publish", "ReportGroup 9 a failed"}},
		{name: "a graph run's re-run of its module stays in its queue", setup: []Event{enqueued(grouped("a"))},
			ev: rerun,
			want: []string{"Unwatch module/a", "Run parallel_queue_1:ModuleRun:a #2", "Publish",
				"ReportGroup 9 a requeued"}},
		{name: "a reload drops the failing converge in main",
			setup: []Event{enqueued(messages.NewModuleRun("a", "converge")), done("main", 1, "exit 1")},
			ev:    enqueued(messages.NewReloadAll(messages.ActivationReloadAll, "config changed")),
			want:  supersededInMain("a")},
		{name: "an event run is held back while events are held", setup: []Event{HoldSet{Hold: true}},
			ev: enqueued(asEvent(globalHook("tick"))), want: []string{"Log INFO event held back while discovery fails", "Publish"}},
		{name: "the runs held are queued when released", setup: []Event{HoldSet{Hold: true}, enqueued(asEvent(globalHook("tick")))},
			ev: HoldSet{Hold: false},
			want: []string{"Log INFO events held back while discovery failed are queued", "Run main:GlobalHookRun:tick #1",
				"Publish"}},
	}
	runCases(t, cases)
}

// supersededInMain is what a reload ("config changed", task 2) queued
// behind module's failing run in main (task 1) does.
func supersededInMain(module string) []string {
	return []string{"Publish", "Log WARN reload supersedes a failing converge; its tasks are dropped",
		"Log INFO task dropped: superseded by a reload", "Dropped main:ModuleRun:" + module + ": superseded by config changed",
		"Superseded by main:ReloadAllModules, 1 dropped", "Run main:ReloadAllModules #2", "Publish"}
}

// stepCase steps a new core through setup, then checks the effects of ev.
type stepCase struct {
	name  string
	setup []Event
	ev    Event
	want  []string
}

func runCases(t *testing.T, cases []stepCase) {
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newTestCore()
			for _, ev := range tc.setup {
				c.Step(ev, Env{Now: t0})
			}
			step := func(ev Event) []Effect { return c.Step(ev, Env{Now: t0}) }
			h := actortest.Harness[Event, Effect]{T: t, Step: step, Describe: effectText}
			h.Expect(tc.ev, tc.want...)
		})
	}
}

func newTestCore() *Core {
	return NewCore(CoreOptions{Policy: supervision.Fixed{Wait: 5 * time.Second},
		OwnerID: func(owner string) string { return owner }})
}

// A failed task shows its attempt, error and next retry in the snapshot
// the Publish after the failure hands out.
func TestFailedTaskIsPublishedWithItsRetry(t *testing.T) {
	c := newTestCore()
	c.Step(enqueued(globalHook("a")), Env{Now: t0})
	c.Step(done("main", 1, "exit 1"), Env{Now: t0.Add(time.Second)})
	head := c.Snapshot(t0).Queues[0].Tasks[0]
	if head.Attempts != 1 || head.LastError != "exit 1" || !head.NextRetry.Equal(t0.Add(6*time.Second)) || head.Running {
		t.Fatalf("failed head %+v", head)
	}
}

// The tasks a task queues when it finishes (its steps and its reactions)
// take its activation unless they name their own; the sender's slice is
// left as it was.
func TestFollowUpsTakeTheirTaskActivation(t *testing.T) {
	c := newTestCore()
	start := globalHook("onStartup")
	start.Activation = messages.ActivationStartup
	c.Step(enqueued(start, globalHook("event")), Env{Now: t0})
	own := globalHook("own")
	own.Activation = messages.ActivationGlobalValues
	fin := done("main", 1, "", globalHook("step"), own)
	fin.Done.Later = []messages.Task{globalHook("reaction")}
	c.Step(fin, Env{Now: t0})
	got := map[string]messages.Activation{}
	for _, task := range c.Snapshot(t0).Queues[0].Tasks {
		got[task.Hook] = task.Activation
	}
	want := map[string]messages.Activation{"step": messages.ActivationStartup, "own": messages.ActivationGlobalValues,
		"event": "", "reaction": messages.ActivationStartup}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("activations %v, want %v", got, want)
	}
	if fin.Done.Next[0].Activation != "" || fin.Done.Later[0].Activation != "" {
		t.Fatalf("the sender's tasks were changed: %+v %+v", fin.Done.Next[0], fin.Done.Later[0])
	}
}

// A Publish carries the queues as the event leaves them: the applier
// reads nothing of the core.
func TestPublishCarriesTheQueues(t *testing.T) {
	c := newTestCore()
	var published []messages.QueueSnapshot
	for _, e := range c.Step(enqueued(globalHook("a"), globalHook("b")), Env{Now: t0}) {
		if p, ok := e.(Publish); ok {
			published = append(published, p.Snapshot)
		}
	}
	if len(published) != 1 || !published[0].At.Equal(t0) || len(published[0].Queues) != 1 ||
		len(published[0].Queues[0].Tasks) != 2 || !published[0].Queues[0].Tasks[0].Running {
		t.Fatalf("published %+v", published)
	}
}
