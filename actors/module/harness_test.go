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

	"github.com/addon-actors/addon-operator/hook/bindings"
	"github.com/addon-actors/addon-operator/hookexec"
	"github.com/addon-actors/addon-operator/hookexec/hookconfig"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/hookrun/owner"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/test/actortest"
	"github.com/addon-actors/addon-operator/values"
)

// harness drives a Core as the actor would, with no process started:
// events in, effects out, written as short strings (actortest.Harness with
// this package's describer).
type harness struct {
	t     *testing.T
	core  *Core
	env   Env
	queue *actor.PID
	h     actortest.Harness[any, Effect]
}

var coreEpoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// demoOptions are the core options of module "demo" with a chart when
// hasChart, a kube actor and a clock that checks the release every minute.
func demoOptions(t *testing.T, hasChart bool, sections values.Sections) CoreOptions {
	t.Helper()
	names, err := values.ParseModuleDir("010-demo")
	if err != nil {
		t.Fatal(err)
	}
	scope, err := values.NewModuleScope(names, nil, sections)
	if err != nil {
		t.Fatal(err)
	}
	return CoreOptions{Names: names, Scope: scope, HasChart: hasChart, WithKube: true, Clock: true,
		CheckInterval: time.Minute, Retries: true, CRDs: true, Webhooks: true}
}

// newHarness builds the core of module "demo" with hooks given as
// name -> --config JSON.
func newHarness(t *testing.T, hasChart bool, hooks map[string]string) *harness {
	t.Helper()
	o := demoOptions(t, hasChart, values.Sections{Modules: map[string]any{"demo": map[string]any{"replicas": float64(1)}}})
	h := harnessOf(t, NewCore(o))
	h.env.Global = values.Snapshot{Key: "global", Values: map[string]any{"domain": "a.example"}}
	h.step(Configured{Hooks: hookSet(t, hooks)}, "Publish", "Ready")
	return h
}

// harnessOf drives c.
func harnessOf(t *testing.T, c *Core) *harness {
	h := &harness{t: t, core: c, env: Env{Now: coreEpoch}, queue: actor.NewPID("test", "queue")}
	h.h = actortest.Harness[any, Effect]{T: t, Step: func(ev any) []Effect { return c.Step(wrap(ev), h.env) },
		Describe: describeOne, State: func() string { return "phase " + c.Phase().String() }}
	return h
}

// hookSet is the hooks given as name -> --config JSON.
func hookSet(t *testing.T, hooks map[string]string) hookrun.HookSet {
	t.Helper()
	var set hookrun.HookSet
	for _, name := range slices.Sorted(maps.Keys(hooks)) {
		cfg, err := hookconfig.Parse([]byte(hooks[name]), bindings.ScopeModule)
		if err != nil {
			t.Fatalf("hook %s: %v", name, err)
		}
		set = append(set, hookrun.Hook{Hook: hookexec.Hook{Name: name}, Config: cfg})
	}
	return set
}

// wrap is ev as the core takes it: a sub-machine's event in its wrapper.
func wrap(ev any) Event {
	switch e := ev.(type) {
	case checkEvent:
		return CheckEvent{Event: e}
	case webhookEvent:
		return WebhookEvent{Event: e}
	case deleteEvent:
		return DeleteEvent{Event: e}
	}
	return ev.(Event)
}

// unwrap is a sub-machine's effect out of its wrapper.
func unwrap(e Effect) any {
	switch e := e.(type) {
	case LifeEffect:
		return e.Effect
	case CheckEffect:
		return e.Effect
	case WebhookEffect:
		return e.Effect
	case DeleteEffect:
		return e.Effect
	case Owned:
		return e.Effect
	}
	return e
}

// step feeds ev and checks the effects against want (short strings).
func (h *harness) step(ev any, want ...string) []Effect {
	h.t.Helper()
	return h.h.Expect(ev, want...)
}

func (h *harness) assign(t messages.Task, want ...string) []Effect {
	h.t.Helper()
	return h.step(TaskAssigned{Assigned: hookrun.Assigned{Task: t, Queue: h.queue}}, want...)
}

// ok is a hook that exits 0 with the given values patch (none when "").
func ok(t *testing.T, valuesPatch string) OwnerEvent {
	t.Helper()
	var res hookexec.Result
	if valuesPatch != "" {
		p, err := hookexec.ParsePatch([]byte(valuesPatch), hookexec.PatchScope{RootKey: "demo"})
		if err != nil {
			t.Fatal(err)
		}
		res.ValuesPatch = p
	}
	return inRun(hookrun.HookDone{Result: res})
}

func failed(msg string) OwnerEvent {
	return inRun(hookrun.HookDone{Err: errors.New(msg)})
}

// inRun is an event of the running hook run.
func inRun(ev hookrun.Event) OwnerEvent {
	return OwnerEvent{Event: owner.HookRunEvent{Event: ev}}
}

// describe writes effects as short strings.
func describe(effects []Effect) []string {
	var out []string
	for _, e := range effects {
		out = append(out, describeOne(e))
	}
	return out
}

// logNames name the core's log records in the short strings.
var logNames = map[string]string{
	"task failed": "TaskFailed", "task failed; its binding allows failure": "TaskFailed allowed",
	"hook failed; its binding allows failure, the run goes on": "HookFailureAllowed",
	"helm": "HelmUpgraded", HelmSkippedMessage: "HelmSkipped", UninstalledMessage: "Uninstalled",
	"release check": "CheckFailed", "release objects are absent; queueing a module run": "AbsentFound",
	"drift cleared: helm wrote the release": "DriftCleared",
}

func describeOne(e Effect) string {
	switch e := e.(type) {
	case Owned:
		return describeOwned(e.Effect)
	case Log:
		if name, ok := logNames[e.Msg]; ok {
			return name
		}
		return "Log " + e.Msg
	case Watch:
		return fmt.Sprintf("Watch on=%t sync=%t", e.On, e.Sync)
	case Reply:
		return "Reply " + describeDone(e.Done)
	case Observed:
		return fmt.Sprintf("Observed helm=%t err=%t", e.Helm, e.Err != nil)
	case RunHelm:
		if e.Maintenance {
			return "RunHelm maintenance"
		}
	case DestructiveDone:
		return fmt.Sprintf("DestructiveDone %d", len(e.Actions))
	}
	switch e := unwrap(e).(type) {
	case ArmReconfigure:
		return fmt.Sprintf("ArmReconfigure %d", e.Attempt)
	case Ready:
		return strings.TrimSpace("Ready " + e.Err)
	default:
		return reflect.TypeOf(e).Name()
	}
}

// describeOwned writes an owner's effect as describeOne would the effect
// itself: the wrapping Owned (and a hook run's InRun) is left out.
func describeOwned(e owner.Effect) string {
	switch e := e.(type) {
	case owner.InRun:
		return describeHook(e.Effect)
	case owner.ConfigReply:
		return fmt.Sprintf("ConfigReply changed=%t err=%q", e.Reply.Changed, e.Reply.Err)
	}
	return reflect.TypeOf(e).Name()
}

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
	rh, isRun := hookEffect(e).(hookrun.RunHook)
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

// hookEffect is the hook run's effect e carries (nil: none).
func hookEffect(e Effect) hookrun.Effect {
	o, _ := e.(Owned)
	in, _ := o.Effect.(owner.InRun)
	return in.Effect
}
