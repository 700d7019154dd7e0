package module

import (
	"testing"

	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/hookexec"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/hookrun/owner"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/values"
)

// TestRunInputsArePinned: global values and the enabled modules published
// while a run goes on reach neither its later hooks nor its helm upgrade.
func TestRunInputsArePinned(t *testing.T) {
	h := newHarness(t, true, map[string]string{"b-before.sh": beforeHelm, "c-before.sh": beforeHelm})
	h.env.Enabled = []string{"demo"}
	first := h.assign(newRun(), "Publish", "Watch on=true sync=false", "RunHook b-before.sh beforeHelm")
	h.env.Global = values.Snapshot{Key: "global", Values: map[string]any{"domain": "b.example"}}
	h.env.Enabled = []string{"demo", "other"}
	second := h.step(ok(t, `[{"op":"add","path":"/demo/replicas","value":3}]`), "Ran", "RunHook c-before.sh beforeHelm")
	for i, e := range []Effect{first[2], second[1]} {
		v := requestValues(t, e)
		if got := v["global"].(map[string]any)["domain"]; got != "a.example" {
			t.Errorf("hook %d got global.domain %v, want the pinned a.example", i, got)
		}
		if got := v["global"].(map[string]any)["enabledModules"]; len(got.([]any)) != 1 {
			t.Errorf("hook %d got enabledModules %v, want the pinned [demo]", i, got)
		}
	}
	if got := requestValues(t, second[1])["demo"].(map[string]any)["replicas"]; got != float64(3) {
		t.Errorf("second hook got demo.replicas %v, want 3 from the first hook's patch", got)
	}
	helm := h.step(ok(t, ""), "Ran", "RunHelm")[1].(RunHelm)
	if got := helm.Values["global"].(map[string]any)["domain"]; got != "a.example" {
		t.Errorf("helm got global.domain %v, want the pinned a.example", got)
	}
	h.step(HelmFinished{}, "Observed helm=true err=false", "DestructiveDone 0", "HelmUpgraded",
		"Observed helm=false err=false", "ArmCheck", "Publish", "Reply ok")
	pinnedAgain := h.assign(newRun(), "Publish", "RunHook b-before.sh beforeHelm")
	if got := requestValues(t, pinnedAgain[1])["global"].(map[string]any)["domain"]; got != "b.example" {
		t.Errorf("the next run got global.domain %v, want b.example", got)
	}
}

// TestValuesChangesQueueAModuleRun: a values change by an afterHelm hook
// or an event hook queues another module run; by beforeHelm, onStartup or
// a Synchronization run it does not; no change queues nothing.
func TestValuesChangesQueueAModuleRun(t *testing.T) {
	patch := `[{"op":"add","path":"/demo/replicas","value":5}]`
	event := func(sync bool) messages.Task {
		return messages.Task{Kind: messages.TaskModuleHook, Module: "demo", Hook: "d-kube.sh", Binding: "pods", Sync: sync,
			Context: []byte(`[{"binding":"pods","type":"Event"}]`)}
	}
	for _, tc := range []struct {
		name  string
		task  messages.Task
		patch string
		want  string
	}{
		{"event hook changes values", event(false), patch, "Reply later=ModuleRun"},
		{"Synchronization run changes values", event(true), patch, "Reply ok"},
		{"event hook patches the same value", event(false), `[{"op":"add","path":"/demo/replicas","value":1}]`, "Reply ok"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, false, lifecycleHooks())
			h.assign(tc.task, "Publish", "RunHook d-kube.sh pods")
			h.step(ok(t, tc.patch), "Ran", "Publish", tc.want)
		})
	}
	h := newHarness(t, false, lifecycleHooks())
	h.assign(newRun(), "Publish", "RunHook a-startup.sh onStartup")
	h.step(ok(t, patch), "Ran", "Watch on=true sync=true")
	h.step(KubeSynced{}, "RunHook b-before.sh beforeHelm")
	h.step(ok(t, `[{"op":"add","path":"/demo/x","value":1}]`), "Ran", "RunHook c-after.sh afterHelm")
	h.step(ok(t, `[{"op":"add","path":"/demo/y","value":1}]`), "Ran", "Observed helm=false err=false", "ArmCheck", "Publish",
		"Reply later=ModuleRun")
	want := map[string]any{"replicas": float64(5), "x": float64(1), "y": float64(1)}
	if got := h.core.scope().Values(); !jsonEq(got, want) {
		t.Errorf("values %v, want %v", got, want)
	}
}

// TestEchoOfOurConfigWriteChangesNothing: an event hook's config patch is
// applied once and written; the ConfigMap section that comes back equals
// the config layer, so it changes nothing and queues nothing.
func TestEchoOfOurConfigWriteChangesNothing(t *testing.T) {
	h := newHarness(t, false, lifecycleHooks())
	h.assign(messages.Task{Kind: messages.TaskModuleHook, Hook: "d-kube.sh", Binding: "pods", Sync: true,
		Context: []byte(`[{"binding":"pods","type":"Synchronization"}]`)}, "Publish", "RunHook d-kube.sh pods")
	cfg, err := hookexec.ParsePatch([]byte(`[{"op":"add","path":"/demo/replicas","value":4}]`), hookexec.PatchScope{RootKey: "demo"})
	if err != nil {
		t.Fatal(err)
	}
	h.step(inRun(hookrun.HookDone{Result: hookexec.Result{ConfigValuesPatch: cfg}}), "Ran", "WriteConfigPatch")
	h.step(SectionChanged{Section: map[string]any{"replicas": 4}}, "Publish", "ConfigReply changed=false err=\"\"")
	h.step(inRun(hookrun.ConfigWritten{}), "Publish", "Reply ok")
	if got := h.core.scope().Values(); !jsonEq(got, map[string]any{"replicas": float64(4)}) {
		t.Errorf("values %v, want replicas 4", got)
	}
	h.step(SectionChanged{Section: map[string]any{"replicas": 6}}, "Publish", "ConfigReply changed=true err=\"\"")
}

// TestOneTaskAtATime: tasks from several queues wait while one runs, and
// start in arrival order.
func TestOneTaskAtATime(t *testing.T) {
	h := newHarness(t, false, lifecycleHooks())
	h.assign(messages.Task{Kind: messages.TaskModuleHook, Hook: "d-kube.sh", Binding: "pods", Queue: "q1",
		Context: []byte(`[]`)}, "Publish", "RunHook d-kube.sh pods")
	h.assign(newRun())
	h.assign(messages.Task{Kind: messages.TaskModuleHook, Hook: "nope.sh", Queue: "q2"})
	if h.core.Waiting() != 3 {
		t.Fatalf("waiting %d, want 3", h.core.Waiting())
	}
	h.step(ok(t, ""), "Ran", "Publish", "Reply ok", "Publish", "RunHook a-startup.sh onStartup")
	h.step(failed("boom"), "Ran", "Observed helm=false err=true", "TaskFailed", "Publish", "Reply err=hook a-startup.sh: boom",
		"Publish", "TaskFailed", "Publish", `Reply err=module demo has no hook "nope.sh"`)
	if h.core.Busy() || h.core.state.Tasks != 3 {
		t.Errorf("busy %t, tasks %d", h.core.Busy(), h.core.state.Tasks)
	}
}

// TestModuleDelete: uninstall, afterDeleteHelm, then the module is
// disabled and its bindings stop.
func TestModuleDelete(t *testing.T) {
	h := newHarness(t, true, lifecycleHooks())
	h.core.state.Enabled, h.core.state.StartupDone, h.core.watching = true, true, true
	h.assign(messages.Task{Kind: messages.TaskModuleDelete, Reason: "disabled in the ConfigMap", Cause: "config"}, "Publish", "Uninstall")
	wantPhase(t, h, Delete)
	h.step(DeleteFinished{Result: worker.DeleteResult{Removal: worker.Removal{Revision: 3, Status: "deployed"}}},
		"DestructiveDone 0", "DestructiveDone 1", "Uninstalled", "RunHook e-delete.sh afterDeleteHelm")
	wantPhase(t, h, AfterDeleteHelm)
	h.step(ok(t, ""), "Ran", "Watch on=false sync=false", "Publish", "Publish", "Reply ok")
	if s := h.core.state; s.Enabled || s.StartupDone || s.Revision != 0 {
		t.Errorf("state after delete: %+v", s)
	}
	h2 := newHarness(t, true, lifecycleHooks())
	h2.assign(messages.Task{Kind: messages.TaskModuleDelete}, "Publish", "Uninstall")
	h2.step(DeleteFinished{Result: worker.DeleteResult{Err: errString("gone wrong")}}, "DestructiveDone 0", "DeleteFailed", "TaskFailed",
		"Publish", "Reply err=helm uninstall: gone wrong")
}

// TestOutOfTurnRepliesAreIgnored: results for a phase the run is not in
// change nothing.
func TestOutOfTurnRepliesAreIgnored(t *testing.T) {
	h := newHarness(t, true, lifecycleHooks())
	h.step(HelmFinished{})
	h.step(ok(t, ""))
	h.step(KubeSynced{})
	h.assign(newRun(), "Publish", "RunHook a-startup.sh onStartup")
	h.step(HelmFinished{})
	h.step(DeleteFinished{})
	h.step(inRun(hookrun.ConfigWritten{}))
	h.step(inRun(hookrun.TokenArrived{}))
	wantPhase(t, h, Startup)
}

// TestHookEventsBecomeTasks: the owner turns its hooks' events into
// tasks, running or not; a Synchronization takes the running task's
// activation.
func TestHookEventsBecomeTasks(t *testing.T) {
	h := newHarness(t, false, lifecycleHooks())
	run := newRun()
	run.Activation = messages.ActivationStartup
	h.assign(run, "Publish", "RunHook a-startup.sh onStartup")
	effects := h.step(OwnerEvent{Event: owner.HookEventArrived{Event: messages.HookEvent{Owner: "module/demo", Hook: "d-kube.sh", Binding: "pods",
		Source: "kubernetes Pod", Context: []byte(`[]`)}}}, "Enqueue")
	if task := effects[0].(Owned).Effect.(owner.Enqueue).Tasks[0]; task.Kind != messages.TaskModuleHook || task.Module != "demo" || task.Hook != "d-kube.sh" ||
		task.Activation != "" {
		t.Errorf("task %+v", task)
	}
	effects = h.step(OwnerEvent{Event: owner.HookEventArrived{Event: messages.HookEvent{Owner: "module/demo", Hook: "d-kube.sh", Binding: "pods",
		Queue: "q", Sync: true, Context: []byte(`[]`)}}}, "Enqueue")
	if task := effects[0].(Owned).Effect.(owner.Enqueue).Tasks[0]; !task.Sync || task.Activation != h.core.run.task.Activation {
		t.Errorf("Synchronization task %+v: want the run's activation %q", task, h.core.run.task.Activation)
	}
	wantPhase(t, h, Startup)
}

// TestSectionChangeQueuesTheModulesOwnRun: a changed ConfigMap section of
// an enabled module queues its run from the module itself (the operator is
// not asked); a disabled module only takes the values; an equal section
// queues nothing; an invalid one is refused and changes nothing.
func TestSectionChangeQueuesTheModulesOwnRun(t *testing.T) {
	for _, tc := range []struct {
		name    string
		enabled bool
		section any
		want    []string
		values  map[string]any
	}{
		{"changed, enabled", true, map[string]any{"replicas": 2},
			[]string{"Publish", `ConfigReply changed=true err=""`, "Enqueue"}, map[string]any{"replicas": float64(2)}},
		{"changed, disabled", false, map[string]any{"replicas": 2},
			[]string{"Publish", `ConfigReply changed=true err=""`}, map[string]any{"replicas": float64(2)}},
		{"equal", true, map[string]any{"replicas": 1},
			[]string{"Publish", `ConfigReply changed=false err=""`}, map[string]any{"replicas": float64(1)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, true, nil)
			h.core.state.Enabled = tc.enabled
			effects := h.step(SectionChanged{Section: tc.section}, tc.want...)
			if q, ok := effects[len(effects)-1].(Enqueue); tc.enabled && tc.want[len(tc.want)-1] == "Enqueue" &&
				(!ok || q.Tasks[0].Kind != messages.TaskModuleRun || q.Tasks[0].Module != "demo") {
				t.Errorf("queued %+v, want the module's own ModuleRun", effects[len(effects)-1])
			}
			if got := h.core.scope().Values(); !jsonEq(got, tc.values) {
				t.Errorf("values %v, want %v", got, tc.values)
			}
		})
	}
}

// TestCheckTakesNothing: asked about a section of a ConfigMap change, the
// core answers whether it would take it, for the round asked, and takes
// nothing either way.
func TestCheckTakesNothing(t *testing.T) {
	for _, tc := range []struct {
		name    string
		section any
		reject  bool
	}{
		{name: "a section it would take", section: map[string]any{"replicas": float64(7)}},
		{name: "a section it would reject", section: "not a section", reject: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, true, nil)
			before := h.core.scope().Checksum()
			effects := h.core.Step(OwnerEvent{Event: owner.CheckAsked{Check: messages.CheckConfig{Section: tc.section, Round: 9}}}, h.env)
			if len(effects) != 1 {
				t.Fatalf("effects %q, want the answer alone", describe(effects))
			}
			r := effects[0].(Owned).Effect.(owner.CheckReply).Reply
			if r.Round != 9 || r.Owner != "module/demo" || (r.Err != "") != tc.reject {
				t.Fatalf("answer %+v, want round 9 from module/demo, rejected %t", r, tc.reject)
			}
			if h.core.scope().Checksum() != before {
				t.Fatal("the check changed the module's values")
			}
		})
	}
}
