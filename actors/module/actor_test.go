package module_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/actors/module"
	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/hookexec"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/test/actortest"
	"github.com/addon-actors/addon-operator/values"
)

const patience = 10 * time.Second

func hook(config, body string) string {
	return "#!/usr/bin/env bash\nset -euo pipefail\nif [[ ${1:-} == --config ]]; then echo '" + config + "'; exit 0; fi\n" +
		"echo \"$(basename $0) $(jq -c . $BINDING_CONTEXT_PATH)\" >> $RECORD\n" + body + "\n"
}

// moduleDir writes a chartless module (helm is skipped) named demo.
func moduleDir(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "010-demo")
	for name, content := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

type env struct {
	kit    *actortest.Kit
	pid    *actor.PID
	queue  *actortest.Probe
	record string
}

// spawn starts the module actor with a real hook runner; its parent (for
// OwnerReady) is the root, so the test talks to it as the queue would.
func spawn(t *testing.T, dir string) *env {
	t.Helper()
	names, err := values.ParseModuleDir(filepath.Base(dir))
	if err != nil {
		t.Fatal(err)
	}
	record := filepath.Join(t.TempDir(), "record")
	runner := hookexec.NewRunner(hookexec.Options{Environ: append(os.Environ(), "RECORD="+record), TmpDir: t.TempDir()})
	t.Cleanup(runner.Close) // before its temp dir goes: it may be making run dirs ahead
	t.Cleanup(runner.Close)
	kit := actortest.New(t)
	e := &env{kit: kit, queue: kit.NewProbe(), record: record}
	def := layout.Definition{Names: names, Dir: dir}
	operator := kit.NewProbe()
	e.pid = kit.Spawn("module", module.New(module.Options{Definition: def, Runner: runner, Board: board.New(), Clock: kit.Clock,
		Siblings: hookrun.Siblings{Report: operator.PID, Config: e.queue.PID, Queue: e.queue.PID}}))
	if ready := actortest.Expect[messages.OwnerReady](operator, patience); ready.Err != "" {
		t.Fatalf("module did not start: %s", ready.Err)
	}
	return e
}

// spawnAmong starts the module demo with benchHook, on a board where n
// modules (demo among them) are enabled and published.
func spawnAmong(b *testing.B, n int) *env {
	dir := moduleDir(b, map[string]string{"hooks/before": benchHook})
	names, err := values.ParseModuleDir("010-demo")
	if err != nil {
		b.Fatal(err)
	}
	published := board.New()
	published.SetGlobal(values.Snapshot{Key: values.GlobalKey, Values: map[string]any{"domain": "example.com"},
		Config: map[string]any{"domain": "example.com"}}, nil)
	enabled := []string{"demo"}
	for i := range n - 1 {
		name := fmt.Sprintf("module-%04d", i)
		enabled = append(enabled, name)
		published.SetModule(board.ModuleState{Name: name, Enabled: true, Phase: "Done", StartupDone: true, Tasks: 3})
		published.SetModuleValues(name, values.Snapshot{Key: "m" + name[len("module-"):], Values: map[string]any{"n": 1.0}})
	}
	published.SetEnabledModules(enabled)
	runner := hookexec.NewRunner(hookexec.Options{Environ: os.Environ(), TmpDir: b.TempDir()})
	b.Cleanup(runner.Close)
	kit := actortest.New(b)
	e := &env{kit: kit, queue: kit.NewProbe()}
	operator := kit.NewProbe()
	e.pid = kit.Spawn("module", module.New(module.Options{Definition: layout.Definition{Names: names, Dir: dir},
		Runner: runner, Board: published, Clock: kit.Clock,
		Siblings: hookrun.Siblings{Report: operator.PID, Config: e.queue.PID, Queue: e.queue.PID}}))
	if ready := actortest.Expect[messages.OwnerReady](operator, patience); ready.Err != "" {
		b.Fatalf("module did not start: %s", ready.Err)
	}
	return e
}

func (e *env) run(t testing.TB, task messages.Task) messages.TaskDone {
	t.Helper()
	e.queue.Send(e.pid, messages.RunTask{Task: task})
	return actortest.Expect[messages.TaskDone](e.queue, patience)
}

func (e *env) recorded(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(e.record)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(data)), "\n")
}

func TestModuleRunPhasesAndOnStartupOnlyUntilARunCompletes(t *testing.T) {
	dir := moduleDir(t, map[string]string{
		"hooks/a": hook(`{"configVersion":"v1","onStartup":1}`, ""),
		"hooks/b": hook(`{"configVersion":"v1","beforeHelm":2,"afterHelm":1}`, ""),
		"hooks/c": hook(`{"configVersion":"v1","beforeHelm":1}`, ""),
	})
	e := spawn(t, dir)
	task := messages.NewModuleRun("demo", "test")
	task.ID, task.Queue = 7, "main"
	if done := e.run(t, task); done.ID != 7 || done.Err != "" || len(done.Later) != 0 {
		t.Fatalf("first run: %+v", done)
	}
	// beforeHelm and afterHelm carry the snapshots of the hook's kubernetes
	// bindings, {} for none (UPSTREAM §8.4); onStartup carries nothing.
	want := []string{`a [{"binding":"onStartup"}]`, `c [{"binding":"beforeHelm","snapshots":{}}]`,
		`b [{"binding":"beforeHelm","snapshots":{}}]`, `b [{"binding":"afterHelm","snapshots":{}}]`}
	if got := e.recorded(t); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("first run ran\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	e.run(t, task)
	if got := e.recorded(t); len(got) != 7 || strings.HasPrefix(got[4], "a ") {
		t.Fatalf("second run ran onStartup again: %v", got)
	}
	e.kit.Send(e.pid, messages.ModuleDisabled{})
	e.run(t, task)
	if got := e.recorded(t); got[7] != `a [{"binding":"onStartup"}]` {
		t.Fatalf("run after re-enabling did not start with onStartup: %v", got[7:])
	}
}

func TestAfterHelmValuesChangeQueuesAnotherRun(t *testing.T) {
	dir := moduleDir(t, map[string]string{
		"hooks/after": hook(`{"configVersion":"v1","afterHelm":1}`,
			`echo '[{"op":"add","path":"/demo/n","value":1}]' > $VALUES_JSON_PATCH_PATH`),
	})
	e := spawn(t, dir)
	done := e.run(t, messages.NewModuleRun("demo", "test"))
	if len(done.Later) != 1 || done.Later[0].Kind != messages.TaskModuleRun || done.Later[0].Module != "demo" {
		t.Fatalf("values changed by afterHelm: %+v", done)
	}
	if done = e.run(t, messages.NewModuleRun("demo", "test")); len(done.Later) != 0 {
		t.Fatalf("same patch again queued another run: %+v", done)
	}
}

func TestFailingHookFailsTheTaskAndChangesNothing(t *testing.T) {
	dir := moduleDir(t, map[string]string{
		"hooks/before": hook(`{"configVersion":"v1","beforeHelm":1}`,
			`echo '[{"op":"add","path":"/demo/x","value":1}]' > $VALUES_JSON_PATCH_PATH; exit 3`),
	})
	e := spawn(t, dir)
	done := e.run(t, messages.NewModuleRun("demo", "test"))
	if !strings.Contains(done.Err, "before") || !strings.Contains(done.Err, "3") {
		t.Fatalf("failed hook: %+v", done)
	}
}

func TestTasksWaitForEachOther(t *testing.T) {
	dir := moduleDir(t, map[string]string{
		"hooks/slow": hook(`{"configVersion":"v1","beforeHelm":1}`, "sleep 0.2"),
	})
	e := spawn(t, dir)
	first, second := messages.NewModuleRun("demo", "a"), messages.NewModuleRun("demo", "b")
	first.ID, second.ID = 1, 2
	e.queue.Send(e.pid, messages.RunTask{Task: first})
	e.queue.Send(e.pid, messages.RunTask{Task: second})
	for _, want := range []uint64{1, 2} {
		if got := actortest.Expect[messages.TaskDone](e.queue, patience); got.ID != want {
			t.Fatalf("task %d finished, want %d", got.ID, want)
		}
	}
	if got := e.recorded(t); len(got) != 2 {
		t.Fatalf("hook ran %d times", len(got))
	}
}

// settings.executionMinInterval paces a hook's runs: with a burst of 1 the
// second run waits, on the clock, for the interval.
func TestExecutionMinIntervalPacesRuns(t *testing.T) {
	dir := moduleDir(t, map[string]string{
		"hooks/paced": hook(`{"configVersion":"v1","schedule":[{"name":"s","crontab":"* * * * *"}],`+
			`"settings":{"executionMinInterval":"10s","executionBurst":1}}`, ""),
	})
	e := spawn(t, dir)
	task := messages.Task{Kind: messages.TaskModuleHook, Owner: "module/demo", Module: "demo", Hook: "hooks/paced", Binding: "s",
		Context: []byte(`[{"binding":"s","type":"Schedule"}]`)}
	e.run(t, task)
	e.queue.Send(e.pid, messages.RunTask{Task: task})
	if err := e.kit.Clock.WaitForTimers(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	e.queue.ExpectNoMessage(50 * time.Millisecond)
	if got := e.kit.Clock.Pending(); len(got) != 1 || got[0] != 10*time.Second {
		t.Fatalf("pending timers %v, want the run held for 10s", got)
	}
	e.kit.Clock.Advance(10 * time.Second)
	actortest.Expect[messages.TaskDone](e.queue, patience)
	if got := e.recorded(t); len(got) != 2 {
		t.Fatalf("ran %d times", len(got))
	}
}
