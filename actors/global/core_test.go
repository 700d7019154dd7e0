package global

import (
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/hook/bindings"
	"github.com/addon-actors/addon-operator/hookexec"
	"github.com/addon-actors/addon-operator/hookexec/hookconfig"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/values"
)

var queuePID = actor.NewPID("test", "queue")

func newCore(t *testing.T, hooks map[string]string) *Core {
	t.Helper()
	scope, err := values.NewGlobalScope(nil, values.Sections{Global: map[string]any{"n": float64(1)}})
	if err != nil {
		t.Fatal(err)
	}
	c := &Core{Scope: scope, WithKube: true, Paced: true}
	for _, name := range []string{"after-all.sh", "before-all.sh", "event.sh", "kube.sh", "policy"} {
		if cfg, ok := hooks[name]; ok {
			parsed, err := hookconfig.Parse([]byte(cfg), bindings.ScopeGlobal)
			if err != nil {
				t.Fatal(err)
			}
			c.Hooks = append(c.Hooks, hookrun.Hook{Hook: hookexec.Hook{Name: name}, Config: parsed})
		}
	}
	return c
}

func globalHooks() map[string]string {
	return map[string]string{"after-all.sh": `{"configVersion":"v1","afterAll":2}`,
		"before-all.sh": `{"configVersion":"v1","beforeAll":1,"afterAll":1}`,
		"event.sh":      `{"configVersion":"v1","schedule":[{"name":"tick","crontab":"* * * * *"}]}`}
}

func describe(effects []Effect) []string {
	var out []string
	for _, e := range effects {
		switch e := e.(type) {
		case InQueue:
			s := reflect.TypeOf(e.Effect).Name()
			if rh, ok := e.Effect.(hookrun.RunHook); ok {
				s += " " + rh.Request.Hook.Name
			}
			out = append(out, e.Queue+": "+s)
		case Reply:
			s := fmt.Sprintf("Reply %d", e.Done.ID)
			if e.Done.Err != "" {
				s += " err=" + e.Done.Err
			}
			for _, t := range e.Done.Next {
				s += " next=" + t.Hook
			}
			for _, t := range e.Done.Later {
				s += " later=" + string(t.Kind)
			}
			out = append(out, s)
		case WatchKube:
			out = append(out, fmt.Sprintf("WatchKube sync=%t", e.Sync))
		case SyncWaiting:
			out = append(out, fmt.Sprintf("SyncWaiting %d", e.Runs))
		case Ready:
			s := "Ready"
			if e.Err != "" {
				s += " err=" + e.Err
			}
			out = append(out, s)
		case EnsureWorker:
			out = append(out, "EnsureWorker "+e.Queue)
		default:
			out = append(out, reflect.TypeOf(e).Name())
		}
	}
	return out
}

func step(t *testing.T, c *Core, ev Event, want ...string) []Effect {
	t.Helper()
	effects := c.Step(ev, Env{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	if got := describe(effects); !reflect.DeepEqual(got, want) && (len(got) != 0 || len(want) != 0) {
		t.Fatalf("%T:\n got  %q\n want %q", ev, got, want)
	}
	return effects
}

// assign gives the core a task as the queue does: numbered, and named
// after its queue (main when it names none).
func assign(id uint64, t messages.Task) TaskAssigned {
	t.ID, t.Queue = id, bindings.QueueName(t.Queue)
	return TaskAssigned{Assigned: hookrun.Assigned{Task: t, Queue: queuePID}}
}

func hookTask(hook, binding, queue string) messages.Task {
	return messages.Task{Kind: messages.TaskGlobalHook, Hook: hook, Binding: binding, Queue: queue,
		Context: []byte(`[{"binding":"tick","type":"Schedule"}]`)}
}

func done(queue string, patch string) HookRunEvent {
	var res hookexec.Result
	if patch != "" {
		p, err := hookexec.ParsePatch([]byte(patch), hookexec.PatchScope{RootKey: "global"})
		if err != nil {
			panic(err)
		}
		res.ValuesPatch = p
	}
	return HookRunEvent{Queue: queue, Event: hookrun.HookDone{Result: res}}
}

// TestOneTaskPerQueue: queues run concurrently, one task each; a second
// task from a busy queue fails at once; a stopping actor fails them all.
func TestOneTaskPerQueue(t *testing.T) {
	c := newCore(t, globalHooks())
	step(t, c, assign(1, hookTask("event.sh", "tick", "")), "EnsureWorker main", "main: RunHook event.sh")
	step(t, c, assign(2, hookTask("event.sh", "tick", "slow")), "EnsureWorker slow", "slow: RunHook event.sh")
	step(t, c, assign(3, hookTask("event.sh", "tick", "slow")), "Reply 3 err=the global actor is still running a task of this queue")
	step(t, c, done("slow", ""), "slow: Ran", "Publish", "Reply 2")
	step(t, c, done("main", ""), "main: Ran", "Publish", "Reply 1")
	c.Stopping = true
	step(t, c, assign(4, hookTask("event.sh", "tick", "")), "Reply 4 err=the operator is stopping")
}

// TestBindingTasksAndReloads: a binding run expands into its hooks by
// ORDER; a values change by afterAll or an event hook queues a reload of
// all modules, by beforeAll or a Synchronization run it does not.
func TestBindingTasksAndReloads(t *testing.T) {
	c := newCore(t, globalHooks())
	step(t, c, assign(1, messages.Task{Kind: messages.TaskGlobalBinding, Binding: "afterAll"}),
		"EnsureWorker main", "Reply 1 next=before-all.sh next=after-all.sh")
	patch := `[{"op":"add","path":"/global/n","value":2}]`
	for i, tc := range []struct {
		task messages.Task
		want string
	}{
		{hookTask("before-all.sh", "beforeAll", ""), "Reply 10"},
		{hookTask("after-all.sh", "afterAll", ""), "Reply 11 later=ReloadAllModules"},
		{messages.Task{Kind: messages.TaskGlobalHook, Hook: "event.sh", Binding: "tick", Sync: true, Context: []byte(`[]`)}, "Reply 12"},
	} {
		c := newCore(t, globalHooks())
		step(t, c, assign(uint64(10+i), tc.task), "EnsureWorker main", "main: RunHook "+tc.task.Hook)
		step(t, c, done("main", patch), "main: Ran", "Publish", tc.want)
	}
	step(t, c, assign(3, messages.Task{Kind: messages.TaskGlobalHook, Hook: "nope.sh"}), "EnsureWorker main", `Reply 3 err=no global hook "nope.sh"`)
}

// TestFailedHooks: a failure answers the error, and the queue drops the
// task when it allows failure.
func TestFailedHooks(t *testing.T) {
	c := newCore(t, globalHooks())
	failed := HookRunEvent{Queue: "main", Event: hookrun.HookDone{Err: errors.New("exit status 1")}}
	step(t, c, assign(1, hookTask("event.sh", "tick", "")), "EnsureWorker main", "main: RunHook event.sh")
	step(t, c, failed, "main: Ran", "Reply 1 err=hook event.sh: exit status 1")
	allowed := hookTask("event.sh", "tick", "")
	allowed.AllowFailure = true
	step(t, c, assign(2, allowed), "EnsureWorker main", "main: RunHook event.sh")
	step(t, c, failed, "main: Ran", "Reply 2 err=hook event.sh: exit status 1")
}

// TestGlobalSync: without kubernetes bindings the GlobalSynchronization
// task starts the schedules and ends; with them it waits for the list of
// Synchronization runs and for those of named queues, ends with main's
// runs as its next steps, and the schedules start once those have run. A
// named queue's run that fails with allowFailure counts as finished: the
// wait hears of it before the queue does. Failing bindings fail the task.
func TestGlobalSync(t *testing.T) {
	c := newCore(t, globalHooks())
	step(t, c, assign(1, messages.Task{Kind: messages.TaskGlobalSync}),
		"EnsureWorker main", "StartSchedules", "WatchKube sync=false", "WebhooksSynced", "Reply 1")

	c = newCore(t, withKubeHook(globalHooks()))
	step(t, c, assign(2, messages.Task{Kind: messages.TaskGlobalSync, Activation: messages.ActivationStartup}),
		"EnsureWorker main", "WatchKube sync=true")
	queued := step(t, c, HookEventArrived{Event: messages.HookEvent{Owner: "global", Hook: "event.sh", Binding: "tick",
		Queue: "q", Sync: true}}, "Enqueue")
	if task := queued[0].(Enqueue).Tasks[0]; !task.Sync || task.Activation != messages.ActivationStartup {
		t.Fatalf("named queue's Synchronization task %+v: want the start-up's activation", task)
	}
	run := messages.SyncRun{Hook: "kube.sh", Binding: "pods", Context: []byte(`[]`), AllowFailure: true}
	step(t, c, KubeSynced{Runs: messages.KubeSyncRuns{Runs: []messages.SyncRun{run},
		Waited: []messages.SyncRef{{Hook: "event.sh", Binding: "tick"}}}}, "SyncWaiting 1")
	named := hookTask("event.sh", "tick", "q")
	named.Sync, named.AllowFailure = true, true
	step(t, c, assign(3, named), "EnsureWorker q", "q: RunHook event.sh")
	effects := step(t, c, HookRunEvent{Queue: "q", Event: hookrun.HookDone{Err: errors.New("exit status 1")}},
		"q: Ran", "Reply 2 next=kube.sh", "Reply 3 err=hook event.sh: exit status 1")
	next := effects[1].(Reply).Done.Next[0]
	if !next.AllowFailure || !next.Sync || next.Kind != messages.TaskGlobalHook {
		t.Fatalf("main's Synchronization task %+v does not carry its binding's allowFailure", next)
	}
	step(t, c, assign(4, next), "EnsureWorker main", "main: RunHook kube.sh")
	step(t, c, done("main", ""), "main: Ran", "Publish", "Reply 4", "WebhooksSynced", "StartSchedules")

	c = newCore(t, withKubeHook(globalHooks()))
	step(t, c, assign(5, messages.Task{Kind: messages.TaskGlobalSync}), "EnsureWorker main", "WatchKube sync=true")
	step(t, c, KubeSynced{Runs: messages.KubeSyncRuns{Err: "pods: forbidden"}}, "Reply 5 err=kubernetes bindings: pods: forbidden")
	step(t, c, KubeSynced{Runs: messages.KubeSyncRuns{}}) // the wait is over
}

func withKubeHook(hooks map[string]string) map[string]string {
	hooks["kube.sh"] = `{"configVersion":"v1","kubernetes":[{"name":"pods","apiVersion":"v1","kind":"Pod"}]}`
	return hooks
}

// TestGlobalConfigEcho: the echo of our own config write (a section equal
// to the config layer) changes nothing.
func TestGlobalConfigEcho(t *testing.T) {
	c := newCore(t, globalHooks())
	step(t, c, assign(1, hookTask("event.sh", "tick", "")), "EnsureWorker main", "main: RunHook event.sh")
	cfg, err := hookexec.ParsePatch([]byte(`[{"op":"add","path":"/global/n","value":3}]`), hookexec.PatchScope{RootKey: "global"})
	if err != nil {
		t.Fatal(err)
	}
	step(t, c, HookRunEvent{Queue: "main", Event: hookrun.HookDone{Result: hookexec.Result{ConfigValuesPatch: cfg}}},
		"main: Ran", "Publish", "main: WriteConfigPatch")
	effects := c.Step(SectionChanged{Section: map[string]any{"n": 3}}, Env{})
	if r := effects[len(effects)-1].(ConfigReply).Reply; r.Changed || r.Err != "" {
		t.Errorf("echo: %+v", r)
	}
	step(t, c, HookRunEvent{Queue: "main", Event: hookrun.ConfigWritten{}}, "Reply 1 later=ReloadAllModules")
}

// TestGlobalCheckTakesNothing: asked about the global section of a
// ConfigMap change, the core answers for the round asked and takes nothing.
func TestGlobalCheckTakesNothing(t *testing.T) {
	c := newCore(t, globalHooks())
	before := c.Scope.Checksum()
	for _, tc := range []struct {
		section any
		reject  bool
	}{{section: map[string]any{"n": 5}}, {section: "not a section", reject: true}} {
		effects := c.Step(CheckAsked{Check: messages.CheckConfig{Section: tc.section, Round: 4}}, Env{})
		if len(effects) != 1 {
			t.Fatalf("%v: %d effects, want the answer alone", tc.section, len(effects))
		}
		if r := effects[0].(CheckReply).Reply; r.Round != 4 || r.Owner != messages.OwnerGlobal || (r.Err != "") != tc.reject {
			t.Fatalf("%v: answer %+v, want round 4 from global, rejected %t", tc.section, r, tc.reject)
		}
	}
	if c.Scope.Checksum() != before {
		t.Fatal("the check changed the global values")
	}
}
