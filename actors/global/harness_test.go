package global

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/hook/bindings"
	"github.com/addon-actors/addon-operator/hookexec"
	"github.com/addon-actors/addon-operator/hookexec/hookconfig"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/hookrun/owner"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/test/actortest"
	"github.com/addon-actors/addon-operator/values"
)

var queuePID = actor.NewPID("test", "queue")

// harness steps c as the actor does, at a fixed time, its effects
// described by describe.
func harness(t *testing.T, c *Core) actortest.Harness[Event, Effect] {
	return actortest.Harness[Event, Effect]{T: t, Describe: describe,
		Step: func(ev Event) []Effect { return c.Step(ev, Env{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}) }}
}

// testScope is the global scope of the tests: global.n is 1.
func testScope(t *testing.T) values.Scope {
	t.Helper()
	scope, err := values.NewGlobalScope(nil, values.Sections{Global: map[string]any{"n": float64(1)}})
	if err != nil {
		t.Fatal(err)
	}
	return scope
}

// newCore is a core with a kube actor and a clock, its hooks configured
// (those of hooks among the names the tests use).
func newCore(t *testing.T, hooks map[string]string) *Core {
	t.Helper()
	c := NewCore(CoreOptions{Scope: testScope(t), WithKube: true, Paced: true})
	c.hooks = parseHooks(t, hooks)
	return c
}

func parseHooks(t *testing.T, hooks map[string]string) hookrun.HookSet {
	t.Helper()
	var set hookrun.HookSet
	for _, name := range []string{"after-all.sh", "before-all.sh", "event.sh", "kube.sh", "policy"} {
		if cfg, ok := hooks[name]; ok {
			parsed, err := hookconfig.Parse([]byte(cfg), bindings.ScopeGlobal)
			if err != nil {
				t.Fatal(err)
			}
			set = append(set, hookrun.Hook{Hook: hookexec.Hook{Name: name}, Config: parsed})
		}
	}
	return set
}

func globalHooks() map[string]string {
	return map[string]string{"after-all.sh": `{"configVersion":"v1","afterAll":2}`,
		"before-all.sh": `{"configVersion":"v1","beforeAll":1,"afterAll":1}`,
		"event.sh":      `{"configVersion":"v1","schedule":[{"name":"tick","crontab":"* * * * *"}]}`}
}

// describe writes an effect as the tests expect it.
func describe(e Effect) string {
	switch e := e.(type) {
	case Owned:
		return describeOwned(e.Effect)
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
		return s
	case WatchKube:
		return fmt.Sprintf("WatchKube sync=%t monitors=%d", e.Sync, len(e.Watch.Monitors))
	case StartSchedules:
		return fmt.Sprintf("StartSchedules %d", len(e.Watch.Schedules))
	case Ready:
		if e.Err != "" {
			return "Ready err=" + e.Err
		}
		return "Ready"
	case EnsureWorker:
		return "EnsureWorker " + e.Queue
	case Log:
		return describeLog(e)
	}
	return actortest.TypeName(e)
}

func describeOwned(e owner.Effect) string {
	if in, ok := e.(owner.InRun); ok {
		s := actortest.TypeName(in.Effect)
		if rh, ok := in.Effect.(hookrun.RunHook); ok {
			s += " " + rh.Request.Hook.Name
		}
		return in.Queue + ": " + s
	}
	return actortest.TypeName(e)
}

// describeLog is "Log LEVEL msg key=value...".
func describeLog(e Log) string {
	parts := []string{"Log", e.Level.String(), e.Msg}
	for i := 0; i+1 < len(e.Args); i += 2 {
		parts = append(parts, fmt.Sprintf("%v=%v", e.Args[i], e.Args[i+1]))
	}
	return strings.Join(parts, " ")
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

// inRun is an event of a queue's hook run.
func inRun(queue string, ev hookrun.Event) OwnerEvent {
	return OwnerEvent{Event: owner.HookRunEvent{Queue: queue, Event: ev}}
}

func done(queue string, patch string) OwnerEvent {
	var res hookexec.Result
	if patch != "" {
		p, err := hookexec.ParsePatch([]byte(patch), hookexec.PatchScope{RootKey: "global"})
		if err != nil {
			panic(err)
		}
		res.ValuesPatch = p
	}
	return inRun(queue, hookrun.HookDone{Result: res})
}
