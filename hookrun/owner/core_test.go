package owner_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	jsonpatch "github.com/evanphx/json-patch/v5"

	"github.com/addon-actors/addon-operator/hook/bindings"
	"github.com/addon-actors/addon-operator/hookexec"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/hookrun/owner"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/test/actortest"
	"github.com/addon-actors/addon-operator/values"
)

var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// newOwner is the global actor's Owner, its scope's global.n 1, with a
// kube actor; paced: with a clock.
func newOwner(t *testing.T, paced bool) (*owner.Owner, values.Scope) {
	t.Helper()
	scope, err := values.NewGlobalScope(nil, values.Sections{Global: map[string]any{"n": float64(1)}})
	if err != nil {
		t.Fatal(err)
	}
	return owner.New(owner.Options{Name: messages.OwnerGlobal, Scope: scope, WithKube: true, Paced: paced}), scope
}

// describe writes an owner effect as the tests expect it.
func describe(e owner.Effect) string {
	switch e := e.(type) {
	case owner.InRun:
		return fmt.Sprintf("%s: %s task=%d", e.Queue, actortest.TypeName(e.Effect), e.Task.ID)
	case owner.RunCommitted:
		return fmt.Sprintf("RunCommitted %s changed=%t", e.Queue, e.ValuesChanged)
	case owner.RunFinished:
		return fmt.Sprintf("RunFinished %s err=%v", e.Queue, e.Err)
	case owner.ConfigReply:
		return fmt.Sprintf("ConfigReply changed=%t rejected=%t", e.Reply.Changed, e.Reply.Err != "")
	case owner.Enqueue:
		return fmt.Sprintf("Enqueue %s activation=%q", e.Tasks[0].Hook, e.Tasks[0].Activation)
	}
	return actortest.TypeName(e)
}

// harness steps o with env, its effects described.
func harness(t *testing.T, o *owner.Owner, env *owner.Env) actortest.Harness[owner.Event, owner.Effect] {
	return actortest.Harness[owner.Event, owner.Effect]{T: t, Describe: describe,
		Step: func(ev owner.Event) []owner.Effect { return o.Step(ev, *env) }}
}

// hook is a hook of cfg, as discovery gives it.
func hook(name string, cfg bindings.Config) hookrun.Hook {
	cfg.Version = bindings.V1
	return hookrun.Hook{Hook: hookexec.Hook{Name: name}, Config: &cfg}
}

func orders(t bindings.Type) map[bindings.Type]float64 { return map[bindings.Type]float64{t: 1} }

func begin(t *testing.T, queue string, h hookrun.Hook) owner.HookRunEvent {
	return owner.HookRunEvent{Queue: queue, Event: hookrun.Begin{Hook: h, Info: hookrun.RunInfoOf("onStartup", queue, false, ""),
		Request: hookexec.Request{Hook: h.Hook, BindingContext: []byte(`[]`)}}}
}

func result(t *testing.T, queue, values, config string) owner.HookRunEvent {
	t.Helper()
	parse := func(ops string) jsonpatch.Patch {
		if ops == "" {
			return nil
		}
		patch, err := hookexec.ParsePatch([]byte(ops), hookexec.PatchScope{RootKey: "global"})
		if err != nil {
			t.Fatal(err)
		}
		return patch
	}
	res := hookexec.Result{ValuesPatch: parse(values), ConfigValuesPatch: parse(config)}
	return owner.HookRunEvent{Queue: queue, Event: hookrun.HookDone{Result: res}}
}

// TestOwnerRuns: each queue key has its own hook run; a run's effects for
// the shell carry its queue key and the task it runs for; its patches are
// in the owner's scope as soon as it is committed, before its config
// patch is written; an event for a key with no run is dropped; the end
// of a run, failed or not, is the owner's (RunFinished).
func TestOwnerRuns(t *testing.T) {
	o, _ := newOwner(t, false)
	env := &owner.Env{Now: epoch, Task: messages.Task{ID: 7}, Running: true}
	h := harness(t, o, env)
	plain := hook("a.sh", bindings.Config{Orders: orders(bindings.OnStartup)})
	h.Expect(begin(t, "main", plain), "main: RunHook task=7")
	env.Task.ID = 8
	h.Expect(begin(t, "slow", plain), "slow: RunHook task=8")
	if o.Stage("main") != hookrun.Running || o.Stage("slow") != hookrun.Running || o.Stage("other") != hookrun.Idle {
		t.Fatalf("stages main %v slow %v other %v", o.Stage("main"), o.Stage("slow"), o.Stage("other"))
	}
	h.Expect(owner.HookRunEvent{Queue: "other", Event: hookrun.TokenArrived{}}) // no run: dropped
	h.Expect(result(t, "slow", `[{"op":"add","path":"/global/n","value":2}]`, `[{"op":"add","path":"/global/n","value":3}]`),
		"slow: Ran task=8", "RunCommitted slow changed=true", "slow: WriteConfigPatch task=8")
	if n := o.Scope().Values().(map[string]any)["n"]; n != float64(2) {
		t.Fatalf("committed scope has n=%v, want the values patch's 2 over the config patch's 3", n)
	}
	h.Expect(owner.SectionChanged{Section: map[string]any{"n": 3}}, "Publish", "ConfigReply changed=false rejected=false") // the echo
	h.Expect(owner.HookRunEvent{Queue: "slow", Event: hookrun.ConfigWritten{}}, "RunFinished slow err=<nil>")
	h.Expect(owner.HookRunEvent{Queue: "main", Event: hookrun.HookDone{Err: errors.New("exit status 1")}},
		"main: Ran task=8", "RunFinished main err=hook a.sh: exit status 1")
	h.Expect(begin(t, "main", plain), "main: RunHook task=8") // the run is idle again
}

// TestOwnerSnapshotsAndPacing: a run that wants snapshots asks for them
// with its queue key; a paced hook over its rate waits for a timer.
func TestOwnerSnapshotsAndPacing(t *testing.T) {
	o, _ := newOwner(t, true)
	env := &owner.Env{Now: epoch}
	h := harness(t, o, env)
	kube := hook("kube.sh", bindings.Config{Orders: orders(bindings.BeforeAll), Kubernetes: []bindings.KubernetesBinding{{Name: "pods"}}})
	ev := begin(t, "q", kube)
	b := ev.Event.(hookrun.Begin)
	b.Request.BindingContext, b.Info.Binding = nil, "beforeAll"
	ev.Event = b
	h.Expect(ev, "q: GetSnapshots task=0")
	h.Expect(owner.HookRunEvent{Queue: "q", Event: hookrun.SnapshotsRead{}}, "q: RunHook task=0")
	h.Expect(result(t, "q", "", ""), "q: Ran task=0", "RunCommitted q changed=false", "RunFinished q err=<nil>")
	paced := hook("paced.sh", bindings.Config{Orders: orders(bindings.OnStartup), Settings: bindings.Settings{ExecutionMinInterval: 10 * time.Second}})
	h.Expect(begin(t, "q", paced), "q: RunHook task=0")
	h.Expect(result(t, "q", "", ""), "q: Ran task=0", "RunCommitted q changed=false", "RunFinished q err=<nil>")
	h.Expect(begin(t, "q", paced), "q: ArmTimer task=0")
	h.Expect(owner.HookRunEvent{Queue: "q", Event: hookrun.TokenArrived{}}, "q: RunHook task=0")
}

// TestOwnerConfig: a check answers for its round and takes nothing; a
// section is taken and published, or rejected with the scope kept.
func TestOwnerConfig(t *testing.T) {
	o, scope := newOwner(t, false)
	h := harness(t, o, &owner.Env{})
	for _, tc := range []struct {
		section any
		reject  bool
	}{{section: map[string]any{"n": 5}}, {section: "not a section", reject: true}} {
		effects := h.Expect(owner.CheckAsked{Check: messages.CheckConfig{Section: tc.section, Round: 4}}, "CheckReply")
		if r := effects[0].(owner.CheckReply).Reply; r.Round != 4 || r.Owner != messages.OwnerGlobal || (r.Err != "") != tc.reject {
			t.Fatalf("%v: answer %+v, want round 4 from global, rejected %t", tc.section, r, tc.reject)
		}
	}
	if o.Scope().Checksum() != scope.Checksum() {
		t.Fatal("a check changed the scope")
	}
	h.Expect(owner.SectionChanged{Section: "not a section"}, "ConfigReply changed=false rejected=true")
	if o.Scope().Checksum() != scope.Checksum() {
		t.Fatal("a rejected section changed the scope")
	}
	effects := h.Expect(owner.SectionChanged{Section: map[string]any{"n": 5}}, "Publish", "ConfigReply changed=true rejected=false")
	if p := effects[0].(owner.Publish).Scope; p.Checksum() != o.Scope().Checksum() || p.Checksum() == scope.Checksum() {
		t.Fatal("Publish does not carry the new scope")
	}
}

// TestOwnerHookEvents: a hook event becomes its task; a Synchronization
// that arrives while the task of Env runs takes that task's activation.
func TestOwnerHookEvents(t *testing.T) {
	o, _ := newOwner(t, false)
	env := &owner.Env{Task: messages.Task{Activation: messages.ActivationStartup}, Running: true}
	h := harness(t, o, env)
	sync := messages.HookEvent{Owner: messages.OwnerGlobal, Hook: "g.sh", Binding: "pods", Queue: "q", Sync: true}
	h.Expect(owner.HookEventArrived{Event: sync}, `Enqueue g.sh activation="OperatorStartup"`)
	env.Running = false
	h.Expect(owner.HookEventArrived{Event: sync}, `Enqueue g.sh activation=""`)
}
