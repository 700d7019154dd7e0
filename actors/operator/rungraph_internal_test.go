package operator

import (
	"reflect"
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/messages"
)

// runTasks keeps plain runs in main one by one (parallel 1, no module
// that declares requirements); with parallel > 1 a weight of two or more
// modules is one ParallelModuleRun and a weight of one keeps its plain run
// in main (UPSTREAM §4), weights in order; when an enabled module declares
// requirements one ParallelModuleRun runs all the enabled modules as a
// graph.
func TestRunTasks(t *testing.T) {
	defs := []layout.Definition{def(t, "010-a", ""), def(t, "010-b", ""), def(t, "020-c", ""),
		requires(def(t, "030-d", ""), "a"), def(t, "e", ""), def(t, "f", ""), requires(def(t, "080-n", ""))}
	all := []string{"a", "b", "c", "d", "f"}
	cases := []struct {
		name     string
		enabled  []string
		parallel int
		want     []string
	}{
		{name: "parallel 1, no requirements: one by one in main", enabled: []string{"a", "b", "c", "f"}, parallel: 1,
			want: []string{"run a", "run b", "run c", "run f"}},
		{name: "parallel 0 is 1", enabled: []string{"a", "c"}, want: []string{"run a", "run c"}},
		{name: "parallel 8: a group per weight of two or more, a lone module in main", enabled: []string{"a", "b", "c", "f"},
			parallel: 8, want: []string{"group a,b", "run c", "run f"}},
		{name: "parallel 8: unnumbered modules share one weight", enabled: []string{"c", "e", "f"}, parallel: 8,
			want: []string{"run c", "group e,f"}},
		{name: "parallel 8 with requirements: one graph", enabled: all, parallel: 8,
			want: []string{"group a,b,c,d,f"}},
		{name: "parallel 1 with requirements: one graph", enabled: all, parallel: 1,
			want: []string{"group a,b,c,d,f"}},
		{name: "parallel 1, a module that requires nothing: one graph", enabled: []string{"a", "c", "n"}, parallel: 1,
			want: []string{"group a,c,n"}},
		{name: "requirements of a disabled module change nothing", enabled: []string{"a", "b"}, parallel: 1,
			want: []string{"run a", "run b"}},
		{name: "nothing enabled", parallel: 8},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := grouped(runTasks(tc.enabled, defs, tc.parallel)); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("tasks %v, want %v", got, tc.want)
			}
		})
	}
}

// requires makes def declare requirements on modules (none: it declares
// `requirements: {modules: {}}`).
func requires(def layout.Definition, modules ...string) layout.Definition {
	def.Requirements.Declared = true
	for _, m := range modules {
		def.Requirements.Modules = append(def.Requirements.Modules, layout.ModuleRequirement{Module: m, Constraint: ">= 0.0.0"})
	}
	return def
}

// runDeps: a module without requirements waits for the nearest lower
// weight's modules without requirements; one with requirements waits for
// the required modules of this converge only (its weight does not count).
func TestRunDeps(t *testing.T) {
	defs := definitions([]layout.Definition{def(t, "010-a", ""), def(t, "010-b", ""), def(t, "020-c", ""),
		requires(def(t, "005-d", ""), "c", "gone"), requires(def(t, "030-e", ""), "d", "x"), def(t, "040-f", ""), def(t, "g", ""),
		requires(def(t, "035-n", ""))})
	cases := []struct {
		name    string
		modules []string
		want    map[string][]string
	}{
		{name: "weights and requirements", modules: []string{"a", "b", "c", "d", "e", "f", "g"},
			want: map[string][]string{"a": nil, "b": nil, "c": {"a", "b"}, "d": {"c"}, "e": {"d"}, "f": {"c"}, "g": {"f"}}},
		{name: "a module that requires nothing waits for nothing, and is waited for by no weight",
			modules: []string{"a", "c", "n", "f"},
			want:    map[string][]string{"a": nil, "c": {"a"}, "n": nil, "f": {"c"}}},
		{name: "a weight with no enabled module is passed over", modules: []string{"a", "f", "g"},
			want: map[string][]string{"a": nil, "f": {"a"}, "g": {"f"}}},
		{name: "a required module that does not run is not waited for", modules: []string{"a", "d", "e"},
			want: map[string][]string{"a": nil, "e": {"d"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := runDeps(tc.modules, defs)
			for m, want := range tc.want {
				if !reflect.DeepEqual(got[m], want) {
					t.Errorf("%s waits for %v, want %v", m, got[m], want)
				}
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

// A graph in flight: at most one going run per parallel queue; a freed
// queue takes the next module that waits for nothing more; a failed run
// keeps its place but frees its queue for the graph (it steps aside while
// it waits for its retry), and holds only the modules that wait for it;
// the graph finishes once every module has succeeded; reports of another
// graph, or of a queue the module is not in, change nothing.
func TestRunGraph(t *testing.T) {
	ok, failed, requeued, dropped := messages.GroupRunSucceeded, messages.GroupRunFailed,
		messages.GroupRunRequeued, messages.GroupRunDropped
	cases := []struct {
		name    string
		modules []string
		deps    map[string][]string
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
				{report: report("a", 0, failed), queued: []string{"d@parallel_queue_0"}}, {report: report("c", 1, ok)},
				{report: report("d", 0, ok)}, {report: report("a", 0, ok), finished: true}}},
		{name: "one queue: a failing module holds only what waits for it", modules: []string{"a", "b", "c", "d"},
			deps: map[string][]string{"b": {"a"}, "d": {"c"}}, queues: 1, start: []string{"a@parallel_queue_0"},
			steps: []groupStep{{report: report("a", 0, failed), queued: []string{"c@parallel_queue_0"}},
				{report: report("c", 0, ok), queued: []string{"d@parallel_queue_0"}}, {report: report("a", 0, failed)},
				{report: report("d", 0, ok)}, {report: report("a", 0, ok), queued: []string{"b@parallel_queue_0"}},
				{report: report("b", 0, ok), finished: true}}},
		{name: "a module waits for all it requires", modules: []string{"a", "b", "c"},
			deps: map[string][]string{"c": {"a", "b"}}, queues: 8, start: []string{"a@parallel_queue_0", "b@parallel_queue_1"},
			steps: []groupStep{{report: report("b", 1, ok)}, {report: report("a", 0, ok), queued: []string{"c@parallel_queue_0"}},
				{report: report("c", 0, ok), finished: true}}},
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
			g := newRunGraph(parallelRun(7, tc.modules...), tc.deps, tc.queues)
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

// parallelRun is a ParallelModuleRun of the start-up converge.
func parallelRun(id uint64, modules ...string) messages.Task {
	return messages.Task{ID: id, Kind: messages.TaskParallelModuleRun, Owner: messages.OwnerOperator,
		Modules: modules, Reason: "converge", Activation: messages.ActivationStartup}
}

// placed writes module runs as "module@queue", checking they carry the
// group's ID and activation and are plain module runs.
func placed(t *testing.T, tasks []messages.Task) []string {
	t.Helper()
	var out []string
	for _, task := range tasks {
		if task.Kind != messages.TaskModuleRun || task.Group != 7 || task.MergeKey == "" ||
			task.Activation != messages.ActivationStartup {
			t.Fatalf("not a module run of group 7: %+v", task)
		}
		out = append(out, task.Module+"@"+task.Queue)
	}
	return out
}

// waits names, for each module not queued yet, the modules it still
// waits for: what `module why` says of a waiting module.
func TestRunGraphWaits(t *testing.T) {
	g := newRunGraph(parallelRun(7, "a", "b", "c", "d"),
		map[string][]string{"c": {"a", "b"}, "d": {"c"}}, 2)
	g.start() // a and b
	if got := g.waits(); !reflect.DeepEqual(got, map[string][]string{"c": {"a", "b"}, "d": {"c"}}) {
		t.Fatalf("waits at start %v", got)
	}
	g.report(report("a", 0, messages.GroupRunSucceeded))
	g.report(report("b", 1, messages.GroupRunFailed))
	if got := g.waits(); !reflect.DeepEqual(got, map[string][]string{"c": {"b"}, "d": {"c"}}) {
		t.Fatalf("waits after a succeeded and b failed %v", got)
	}
}
