package module

import (
	"encoding/json"
	"testing"

	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/hook/bctx"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/hookrun/owner"
	"github.com/addon-actors/addon-operator/messages"
)

// deleteHooks: three beforeDeleteHelm hooks (g first by its order, then f
// and h by name at the same order; g has two kubernetes bindings) and one
// afterDeleteHelm hook.
func deleteHooks() map[string]string {
	return map[string]string{
		"e-delete.sh": afterDel,
		"f-bdh.sh":    `{"configVersion":"v1","beforeDeleteHelm":2}`,
		"g-bdh.sh": `{"configVersion":"v1","beforeDeleteHelm":1,"kubernetes":[` +
			`{"name":"pods","apiVersion":"v1","kind":"Pod"},{"name":"cms","apiVersion":"v1","kind":"ConfigMap"}]}`,
		"h-bdh.sh": `{"configVersion":"v1","beforeDeleteHelm":2}`,
	}
}

func deleteTask() messages.Task {
	return messages.Task{Kind: messages.TaskModuleDelete, Reason: "disabled in the ConfigMap", Cause: "config"}
}

func released(exists bool) ReleaseChecked {
	return ReleaseChecked{Result: worker.ReleaseResult{Exists: exists}}
}

// TestBeforeDeleteHelmRunsBeforeTheUninstall: with a release, the
// beforeDeleteHelm hooks run by order then name, each with the snapshots
// of all its kubernetes bindings ([] for one never filled), then the
// uninstall, then afterDeleteHelm.
func TestBeforeDeleteHelmRunsBeforeTheUninstall(t *testing.T) {
	h := newHarness(t, true, deleteHooks())
	h.core.state.Enabled, h.core.state.StartupDone, h.core.watching = true, true, true
	h.assign(deleteTask(), "Publish", "CheckRelease")
	wantPhase(t, h, BeforeDeleteHelm)
	h.step(released(true), "GetSnapshots")
	pod := bctx.ObjectAndFilterResult{Object: json.RawMessage(`{"kind":"Pod"}`), FilterResult: json.RawMessage(`"p"`)}
	effects := h.step(inRun(hookrun.SnapshotsRead{Snapshots: bctx.Snapshots{"pods": {pod}}}), "RunHook g-bdh.sh beforeDeleteHelm")
	want := `[{"binding":"beforeDeleteHelm","snapshots":{"cms":[],"pods":[{"object":{"kind":"Pod"},"filterResult":"p"}]}}]`
	if got := string(hookEffect(effects[0]).(hookrun.RunHook).Request.BindingContext); !jsonText(t, got, want) {
		t.Errorf("binding context\n got  %s\n want %s", got, want)
	}
	h.step(ok(t, ""), "Ran", "RunHook f-bdh.sh beforeDeleteHelm")
	effects = h.step(ok(t, ""), "Ran", "RunHook h-bdh.sh beforeDeleteHelm")
	if got := string(hookEffect(effects[1]).(hookrun.RunHook).Request.BindingContext); !jsonText(t, got, `[{"binding":"beforeDeleteHelm","snapshots":{}}]`) {
		t.Errorf("binding context of a hook without kubernetes bindings: %s", got)
	}
	h.step(ok(t, ""), "Ran", "Uninstall")
	wantPhase(t, h, Delete)
	h.step(DeleteFinished{Result: worker.DeleteResult{Removal: worker.Removal{Revision: 2, Status: "deployed"}}},
		"DestructiveDone 0", "DestructiveDone 1", "Uninstalled", "RunHook e-delete.sh afterDeleteHelm")
	h.step(ok(t, ""), "Ran", "Watch on=false sync=false", "Publish", "Publish", "Reply ok")
}

// TestBeforeDeleteHelmFailureIsRetriedFromTheStart: a failing hook stops
// the chain: no uninstall, no afterDeleteHelm, the module stays enabled;
// the retry asks for the release again and runs every hook again. A
// failed look-up fails the task too.
func TestBeforeDeleteHelmFailureIsRetriedFromTheStart(t *testing.T) {
	h := newHarness(t, true, deleteHooks())
	h.core.state.Enabled, h.core.state.StartupDone, h.core.watching = true, true, true
	h.assign(deleteTask(), "Publish", "CheckRelease")
	h.step(released(true), "GetSnapshots")
	h.step(inRun(hookrun.SnapshotsRead{}), "RunHook g-bdh.sh beforeDeleteHelm")
	h.step(failed("exit status 1"), "Ran", "DeleteFailed", "TaskFailed", "Publish", "Reply err=hook g-bdh.sh: exit status 1")
	if s := h.core.state; !s.Enabled || !h.core.watching || s.LastError == "" {
		t.Errorf("state after the failure: %+v, watching %t", s, h.core.watching)
	}
	h.assign(deleteTask(), "Publish", "CheckRelease")
	h.step(ReleaseChecked{Result: worker.ReleaseResult{Err: errString("look up release demo: forbidden")}},
		"DeleteFailed", "TaskFailed", "Publish", "Reply err=beforeDeleteHelm: look up release demo: forbidden")
	h.assign(deleteTask(), "Publish", "CheckRelease")
	h.step(released(true), "GetSnapshots")
	h.step(inRun(hookrun.SnapshotsRead{}), "RunHook g-bdh.sh beforeDeleteHelm")
	h.step(ok(t, ""), "Ran", "RunHook f-bdh.sh beforeDeleteHelm")
	h.step(ok(t, ""), "Ran", "RunHook h-bdh.sh beforeDeleteHelm")
	h.step(ok(t, ""), "Ran", "Uninstall")
}

// TestBeforeDeleteHelmSkipped: no release, no chart, or no
// beforeDeleteHelm hook: the hooks do not run (and without a chart or a
// hook the release is not even looked up); afterDeleteHelm still runs.
func TestBeforeDeleteHelmSkipped(t *testing.T) {
	h := newHarness(t, true, deleteHooks())
	h.assign(deleteTask(), "Publish", "CheckRelease")
	h.step(released(false), "Uninstall")
	h.step(DeleteFinished{}, "DestructiveDone 0", "RunHook e-delete.sh afterDeleteHelm")
	h.step(ok(t, ""), "Ran", "Publish", "Publish", "Reply ok")

	noChart := newHarness(t, false, deleteHooks())
	noChart.assign(deleteTask(), "Publish", "Uninstall")
	noHook := newHarness(t, true, lifecycleHooks())
	noHook.assign(deleteTask(), "Publish", "Uninstall")
	noHook.step(released(true)) // out of turn: ignored
	wantPhase(t, noHook, Delete)
}

// TestDisabledKeepsBindingsUntilTheDelete: the operator's ModuleDisabled
// leaves the bindings on (the delete's hooks read their snapshots) and
// drops their events; the delete's end stops them. Enabled again before a
// delete ran, the next run restarts them (Synchronization again).
func TestDisabledKeepsBindingsUntilTheDelete(t *testing.T) {
	h := newHarness(t, true, deleteHooks())
	h.core.state.Enabled, h.core.state.StartupDone, h.core.watching = true, true, true
	h.step(Disabled{}, "DriftCounted", "Publish")
	if !h.core.watching || h.core.state.Enabled {
		t.Fatalf("after ModuleDisabled: watching %t, state %+v", h.core.watching, h.core.state)
	}
	h.step(OwnerEvent{Event: owner.HookEventArrived{Event: messages.HookEvent{Hook: "g-bdh.sh", Binding: "pods"}}})
	h.assign(deleteTask(), "Publish", "CheckRelease")
	h.step(released(false), "Uninstall")
	h.step(DeleteFinished{}, "DestructiveDone 0", "RunHook e-delete.sh afterDeleteHelm")
	h.step(ok(t, ""), "Ran", "Watch on=false sync=false", "Publish", "Publish", "Reply ok")

	again := newHarness(t, true, deleteHooks())
	again.core.state.Enabled, again.core.state.StartupDone, again.core.watching = true, true, true
	again.step(Disabled{}, "DriftCounted", "Publish")
	again.assign(messages.NewModuleRun("demo", "enabled again"), "Publish", "Watch on=false sync=false",
		"Watch on=true sync=true")
	wantPhase(t, again, KubeSync)
}

// jsonText tells whether two JSON texts are equal as values.
func jsonText(t *testing.T, got, want string) bool {
	t.Helper()
	var a, b any
	if err := json.Unmarshal([]byte(got), &a); err != nil {
		t.Fatalf("%s: %v", got, err)
	}
	if err := json.Unmarshal([]byte(want), &b); err != nil {
		t.Fatal(err)
	}
	return jsonEq(a, b)
}
