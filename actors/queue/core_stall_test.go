package queue

import (
	"testing"

	"github.com/addon-actors/addon-operator/messages"
)

func stalled(queue string, id uint64, err string) Finished {
	return Finished{Done: messages.TaskDone{Queue: queue, ID: id, Err: err, Stalled: true}}
}

// A module run its owner stalls (TaskDone.Stalled) is not retried: no
// retry is armed, it steps aside so the tasks behind it run, and the
// snapshot shows it stalled; a run of its module queued later (its config
// section changed, a reset) takes its place and runs at once, its
// failures counted again; a run of another module does not.
func TestStalledRunWaitsForAChange(t *testing.T) {
	const stalledLog = "Log ERROR task failed; stalled: not retried until something changes for its module"
	runCases(t, []stepCase{
		{name: "stalled: no retry, the next task runs",
			setup: []Event{enqueued(messages.NewModuleRun("web", "converge"), globalHook("b"))},
			ev:    stalled("main", 1, "helm upgrade: boom"),
			want:  []string{"Unwatch module/web", stalledLog, "Run main:GlobalHookRun:b #2", "Publish"}},
		{name: "stalled in a converge graph",
			setup: []Event{enqueued(grouped("web"))},
			ev:    stalled("parallel_queue_1", 1, "boom"),
			want:  []string{"Unwatch module/web", stalledLog, "Publish", "ReportGroup 9 web failed"}},
		{name: "a run of the module takes the stalled one's place and runs at once",
			setup: []Event{enqueued(messages.NewModuleRun("web", "converge")), stalled("main", 1, "boom")},
			ev:    enqueued(messages.NewModuleRun("web", "config section changed")),
			want:  []string{"Log WARN module run replaces the retry of a failing run and starts now", "Run main:ModuleRun:web #2", "Publish"}},
		{name: "a reload drops a stalled converge run in main (its module may be disabled now)",
			setup: []Event{enqueued(messages.NewModuleRun("web", "converge")), stalled("main", 1, "boom")},
			ev:    enqueued(messages.NewReloadAll(messages.ActivationReloadAll, "config changed")),
			want:  supersededInMain("web")},
		{name: "a run of another module leaves it stalled",
			setup: []Event{enqueued(messages.NewModuleRun("web", "converge")), stalled("main", 1, "boom")},
			ev:    enqueued(messages.NewModuleRun("db", "converge")),
			want:  []string{"Run main:ModuleRun:db #2", "Publish"}},
	})
}

// The stalled task is shown as such, with its failures and error and no
// next retry; the run that replaces it starts with none.
func TestStalledTaskIsPublished(t *testing.T) {
	c := newTestCore()
	c.Step(enqueued(messages.NewModuleRun("web", "converge")), Env{Now: t0})
	c.Step(done("main", 1, "boom"), Env{Now: t0})
	c.Step(RetryDue{Queue: "main", ID: 1}, Env{Now: t0})
	c.Step(stalled("main", 1, "boom again"), Env{Now: t0})
	head := c.Snapshot(t0).Queues[0].Tasks[0]
	if !head.Stalled || head.Attempts != 2 || head.LastError != "boom again" || !head.NextRetry.IsZero() || head.Running {
		t.Fatalf("stalled head %+v", head)
	}
	c.Step(enqueued(messages.NewModuleRun("web", "reset")), Env{Now: t0})
	head = c.Snapshot(t0).Queues[0].Tasks[0]
	if head.Stalled || head.Attempts != 0 || !head.Running || head.Reason != "reset" {
		t.Fatalf("head after the change %+v", head)
	}
}
