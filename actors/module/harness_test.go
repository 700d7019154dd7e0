package module

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/hook/bindings"
	"github.com/addon-actors/addon-operator/hookexec"
	"github.com/addon-actors/addon-operator/hookexec/hookconfig"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/values"
)

// harness drives a Core as the actor would, with no process started:
// events in, effects out, written as short strings.
type harness struct {
	t     *testing.T
	core  *Core
	env   Env
	queue *actor.PID
}

var coreEpoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// newHarness builds the core of module "demo" with hooks given as
// name -> --config JSON.
func newHarness(t *testing.T, hasChart bool, hooks map[string]string) *harness {
	t.Helper()
	names, err := values.ParseModuleDir("010-demo")
	if err != nil {
		t.Fatal(err)
	}
	scope, err := values.NewModuleScope(names, nil, values.Sections{Modules: map[string]any{"demo": map[string]any{"replicas": float64(1)}}})
	if err != nil {
		t.Fatal(err)
	}
	var set hookrun.HookSet
	for _, name := range slices.Sorted(maps.Keys(hooks)) {
		cfg, err := hookconfig.Parse([]byte(hooks[name]), bindings.ScopeModule)
		if err != nil {
			t.Fatalf("hook %s: %v", name, err)
		}
		set = append(set, hookrun.Hook{Hook: hookexec.Hook{Name: name}, Config: cfg})
	}
	c := &Core{Names: names, HasChart: hasChart, State: board.ModuleState{Name: "demo", Phase: "starting"}}
	env := Env{Now: coreEpoch, Global: values.Snapshot{Key: "global", Values: map[string]any{"domain": "a.example"}}}
	h := &harness{t: t, core: c, env: env, queue: actor.NewPID("test", "queue")}
	h.step(Started{Scope: scope, WithKube: true, Paced: true})
	h.step(Configured{Hooks: set}, "Publish", "Ready")
	return h
}

// step feeds ev and checks the effects against want (short strings).
func (h *harness) step(ev Event, want ...string) []Effect {
	h.t.Helper()
	effects := h.core.Step(ev, h.env)
	got := describe(effects)
	if !reflect.DeepEqual(got, want) && (len(got) != 0 || len(want) != 0) {
		h.t.Fatalf("%T in phase %s:\n got  %q\n want %q", ev, h.core.Phase(), got, want)
	}
	return effects
}

func (h *harness) assign(t messages.Task, want ...string) []Effect {
	h.t.Helper()
	return h.step(TaskAssigned{Assigned: hookrun.Assigned{Task: t, Queue: h.queue}}, want...)
}

// ok is a hook that exits 0 with the given values patch (none when "").
func ok(t *testing.T, valuesPatch string) HookRunEvent {
	t.Helper()
	var res hookexec.Result
	if valuesPatch != "" {
		p, err := hookexec.ParsePatch([]byte(valuesPatch), hookexec.PatchScope{RootKey: "demo"})
		if err != nil {
			t.Fatal(err)
		}
		res.ValuesPatch = p
	}
	return HookRunEvent{Event: hookrun.HookDone{Result: res}}
}

func failed(msg string) HookRunEvent {
	return HookRunEvent{Event: hookrun.HookDone{Err: errors.New(msg)}}
}

// describe writes effects as short strings.
func describe(effects []Effect) []string {
	var out []string
	for _, e := range effects {
		out = append(out, describeOne(e))
	}
	return out
}

func describeOne(e Effect) string {
	switch e := e.(type) {
	case HookEffect:
		return describeHook(e.Effect)
	case Watch:
		return fmt.Sprintf("Watch on=%t sync=%t", e.On, e.Sync)
	case Reply:
		return "Reply " + describeDone(e.Done)
	case ConfigReply:
		return fmt.Sprintf("ConfigReply changed=%t err=%q", e.Reply.Changed, e.Reply.Err)
	case Observed:
		return fmt.Sprintf("Observed helm=%t err=%t", e.Helm, e.Err != nil)
	case RunHelm:
		if e.Maintenance {
			return "RunHelm maintenance"
		}
	case DestructiveDone:
		return fmt.Sprintf("DestructiveDone %d", len(e.Actions))
	case ArmReconfigure:
		return fmt.Sprintf("ArmReconfigure %d", e.Attempt)
	case Ready:
		return strings.TrimSpace("Ready " + e.Err)
	}
	return reflect.TypeOf(e).Name()
}

// describeHook writes a hook run's effect as describeOne would the effect
// itself: the wrapping HookEffect is left out.
func describeHook(e hookrun.Effect) string {
	if rh, ok := e.(hookrun.RunHook); ok {
		return fmt.Sprintf("RunHook %s %s", rh.Request.Hook.Name, rh.Info.Binding)
	}
	return reflect.TypeOf(e).Name()
}

func describeDone(d messages.TaskDone) string {
	var parts []string
	if d.Err != "" {
		parts = append(parts, "err="+d.Err)
	}
	for _, t := range d.Later {
		parts = append(parts, "later="+string(t.Kind))
	}
	if len(parts) == 0 {
		return "ok"
	}
	return strings.Join(parts, " ")
}

// requestValues is the values a RunHook effect gives the hook.
func requestValues(t *testing.T, e Effect) map[string]any {
	t.Helper()
	he, _ := e.(HookEffect)
	rh, isRun := he.Effect.(hookrun.RunHook)
	if !isRun {
		t.Fatalf("effect %T, want RunHook", e)
	}
	var v map[string]any
	if err := json.Unmarshal(rh.Request.Values, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func jsonEq(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}
