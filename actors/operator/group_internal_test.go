package operator

import (
	"reflect"
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/messages"
)

// runTasks groups the runs of one weight (dir prefix; unnumbered modules
// share one weight after the numbered ones) into a ParallelModuleRun when
// parallel > 1; a weight of one module, and parallel 1, keep plain runs.
func TestRunTasksGroupsByWeight(t *testing.T) {
	defs := []layout.Definition{def(t, "010-a", ""), def(t, "010-b", ""), def(t, "020-c", ""),
		def(t, "030-d", ""), def(t, "30-e", ""), def(t, "f", ""), def(t, "g", "")}
	all := []string{"a", "b", "c", "d", "e", "f", "g"}
	cases := []struct {
		name     string
		enabled  []string
		parallel int
		want     []string
	}{
		{name: "parallel 1: one by one", enabled: all, parallel: 1,
			want: []string{"run a", "run b", "run c", "run d", "run e", "run f", "run g"}},
		{name: "parallel 0 is 1", enabled: all,
			want: []string{"run a", "run b", "run c", "run d", "run e", "run f", "run g"}},
		{name: "parallel 8: groups, a single module in main", enabled: all, parallel: 8,
			want: []string{"group a,b", "run c", "group d,e", "group f,g"}},
		{name: "a disabled module leaves a group of one", enabled: []string{"a", "c", "d", "e", "g"}, parallel: 2,
			want: []string{"run a", "run c", "group d,e", "run g"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := grouped(runTasks(tc.enabled, defs, tc.parallel)); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("tasks %v, want %v", got, tc.want)
			}
		})
	}
}

// grouped writes tasks as "run a" and "group a,b".
func grouped(tasks []messages.Task) []string {
	var out []string
	for _, t := range tasks {
		if t.Kind == messages.TaskParallelModuleRun {
			out = append(out, "group "+strings.Join(t.Modules, ","))
			continue
		}
		out = append(out, "run "+t.Module)
	}
	return out
}

type groupStep struct {
	report   messages.GroupRunReport
	queued   []string // "module@queue" of the runs queued by the report
	finished bool
}

func report(module string, queue int, outcome messages.GroupOutcome) messages.GroupRunReport {
	return messages.GroupRunReport{Group: 7, Module: module, Queue: messages.ParallelQueue(queue), Outcome: outcome}
}

// A group in flight: at most one run per parallel queue; a freed queue
// takes the next module; a failed or re-queued run keeps its queue; the
// group finishes once every module has succeeded; reports of another
// group, or of a queue the module is not in, change nothing.
func TestGroupRun(t *testing.T) {
	ok, failed, requeued, dropped := messages.GroupRunSucceeded, messages.GroupRunFailed,
		messages.GroupRunRequeued, messages.GroupRunDropped
	cases := []struct {
		name    string
		modules []string
		queues  int
		start   []string
		steps   []groupStep
	}{
		{name: "fewer modules than queues", modules: []string{"a", "b"}, queues: 8,
			start: []string{"a@parallel_queue_0", "b@parallel_queue_1"},
			steps: []groupStep{{report: report("b", 1, ok)}, {report: report("a", 0, ok), finished: true}}},
		{name: "a failing module is retried while the others finish", modules: []string{"a", "b", "c"}, queues: 8,
			start: []string{"a@parallel_queue_0", "b@parallel_queue_1", "c@parallel_queue_2"},
			steps: []groupStep{{report: report("a", 0, failed)}, {report: report("b", 1, ok)},
				{report: report("c", 2, ok)}, {report: report("a", 0, failed)}, {report: report("a", 0, ok), finished: true}}},
		{name: "more modules than queues: a freed queue takes the next", modules: []string{"a", "b", "c", "d"}, queues: 2,
			start: []string{"a@parallel_queue_0", "b@parallel_queue_1"},
			steps: []groupStep{{report: report("b", 1, ok), queued: []string{"c@parallel_queue_1"}},
				{report: report("a", 0, failed)}, {report: report("c", 1, ok), queued: []string{"d@parallel_queue_1"}},
				{report: report("d", 1, ok)}, {report: report("a", 0, ok), finished: true}}},
		{name: "a re-run by afterHelm keeps the group open", modules: []string{"a", "b"}, queues: 4,
			start: []string{"a@parallel_queue_0", "b@parallel_queue_1"},
			steps: []groupStep{{report: report("a", 0, requeued)}, {report: report("b", 1, ok)},
				{report: report("a", 0, ok), finished: true}}},
		{name: "a dropped run (module gone) counts as done", modules: []string{"a", "b"}, queues: 4,
			start: []string{"a@parallel_queue_0", "b@parallel_queue_1"},
			steps: []groupStep{{report: report("a", 0, dropped)}, {report: report("b", 1, ok), finished: true}}},
		{name: "stray reports change nothing", modules: []string{"a", "b"}, queues: 4,
			start: []string{"a@parallel_queue_0", "b@parallel_queue_1"},
			steps: []groupStep{{report: messages.GroupRunReport{Group: 6, Module: "a", Queue: "parallel_queue_0", Outcome: ok}},
				{report: report("a", 1, ok)}, {report: report("a", 0, ok)}, {report: report("a", 0, ok)},
				{report: report("b", 1, ok), finished: true}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := newGroupRun(7, "converge", tc.modules, tc.queues)
			if got := placed(t, g.start()); !reflect.DeepEqual(got, tc.start) {
				t.Fatalf("start %v, want %v", got, tc.start)
			}
			for i, s := range tc.steps {
				next, finished := g.report(s.report)
				if got := placed(t, next); !reflect.DeepEqual(got, s.queued) || finished != s.finished {
					t.Fatalf("step %d (%+v): queued %v finished %v, want %v %v", i, s.report, got, finished, s.queued, s.finished)
				}
			}
		})
	}
}

// placed writes module runs as "module@queue", checking they carry the
// group's ID and are plain module runs.
func placed(t *testing.T, tasks []messages.Task) []string {
	t.Helper()
	var out []string
	for _, task := range tasks {
		if task.Kind != messages.TaskModuleRun || task.Group != 7 || task.MergeKey == "" {
			t.Fatalf("not a module run of group 7: %+v", task)
		}
		out = append(out, task.Module+"@"+task.Queue)
	}
	return out
}
