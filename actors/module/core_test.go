package module

import (
	"testing"

	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/messages"
)

const (
	onStartup  = `{"configVersion":"v1","onStartup":1}`
	beforeHelm = `{"configVersion":"v1","beforeHelm":1}`
	afterHelm  = `{"configVersion":"v1","afterHelm":1}`
	afterDel   = `{"configVersion":"v1","afterDeleteHelm":1}`
	kubeHook   = `{"configVersion":"v1","kubernetes":[{"name":"pods","apiVersion":"v1","kind":"Pod"}]}`
)

func lifecycleHooks() map[string]string {
	return map[string]string{"a-startup.sh": onStartup, "b-before.sh": beforeHelm, "c-after.sh": afterHelm,
		"d-kube.sh": kubeHook, "e-delete.sh": afterDel}
}

func newRun() messages.Task { return messages.NewModuleRun("demo", "test") }

// TestModuleRunPhases walks a first module run through every phase, then
// a second run, which skips onStartup and the bindings' start.
func TestModuleRunPhases(t *testing.T) {
	h := newHarness(t, true, lifecycleHooks())
	h.assign(newRun(), "Publish", "RunHook a-startup.sh onStartup")
	wantPhase(t, h, Startup)
	h.step(ok(t, ""), "Ran", "Watch on=true sync=true")
	wantPhase(t, h, KubeSync)
	h.step(KubeSynced{Runs: messages.KubeSyncRuns{Runs: []messages.SyncRun{{Hook: "d-kube.sh", Binding: "pods",
		Context: []byte(`[{"binding":"pods","type":"Synchronization","objects":[]}]`)}}}}, "RunHook d-kube.sh pods")
	wantPhase(t, h, SyncHooks)
	h.step(ok(t, ""), "Ran", "RunHook b-before.sh beforeHelm")
	wantPhase(t, h, BeforeHelm)
	h.step(ok(t, ""), "Ran", "RunHelm")
	wantPhase(t, h, Helm)
	h.step(HelmFinished{Result: worker.HelmResult{Outcome: worker.HelmOutcome{Upgraded: true, Revision: 1}}},
		"Observed helm=true err=false", "DestructiveDone 0", "HelmUpgraded", "RunHook c-after.sh afterHelm")
	wantPhase(t, h, AfterHelm)
	h.step(ok(t, ""), "Ran", "Observed helm=false err=false", "ArmCheck", "Publish", "Reply ok")
	wantPhase(t, h, Idle)
	if s := h.core.state; !s.Enabled || !s.StartupDone || s.Revision != 1 || s.Tasks != 1 || s.LastRun != "ModuleRun" {
		t.Errorf("state after the run: %+v", s)
	}
	h.assign(newRun(), "Publish", "RunHook b-before.sh beforeHelm")
	h.step(ok(t, ""), "Ran", "RunHelm")
}

// TestModuleRunWithoutChartOrKube: no chart skips helm; no kube actor (or
// no kubernetes binding) starts the bindings without waiting.
func TestModuleRunWithoutChartOrKube(t *testing.T) {
	h := newHarness(t, false, map[string]string{"b-before.sh": beforeHelm, "c-after.sh": afterHelm})
	h.assign(newRun(), "Publish", "Watch on=true sync=false", "RunHook b-before.sh beforeHelm")
	h.step(ok(t, ""), "Ran", "RunHook c-after.sh afterHelm")
	h.step(ok(t, ""), "Ran", "Observed helm=false err=false", "ArmCheck", "Publish", "Reply ok")
}

func wantPhase(t *testing.T, h *harness, p Phase) {
	t.Helper()
	if got := h.core.Phase(); got != p {
		t.Fatalf("phase %s, want %s", got, p)
	}
}

// TestFailedRunsAreRetriedFromTheStart: a run that fails in any phase
// answers the error; its retry starts again from the first phase, with
// onStartup while no run has completed.
func TestFailedRunsAreRetriedFromTheStart(t *testing.T) {
	for _, tc := range []struct {
		name string
		fail func(h *harness)
	}{
		{"onStartup fails", func(h *harness) {
			h.step(failed("exit status 1"), "Ran", "Observed helm=false err=true", "TaskFailed", "Publish",
				"Reply err=hook a-startup.sh: exit status 1")
		}},
		{"bindings fail", func(h *harness) {
			h.step(ok(h.t, ""), "Ran", "Watch on=true sync=true")
			h.step(KubeSynced{Runs: messages.KubeSyncRuns{Err: "pods: forbidden"}}, "Watch on=false sync=false",
				"Observed helm=false err=true", "TaskFailed", "Publish", "Reply err=kubernetes bindings: pods: forbidden")
		}},
		{"helm fails", func(h *harness) {
			h.step(ok(h.t, ""), "Ran", "Watch on=true sync=true")
			h.step(KubeSynced{}, "RunHook b-before.sh beforeHelm")
			h.step(ok(h.t, ""), "Ran", "RunHelm")
			h.step(HelmFinished{Result: worker.HelmResult{Err: errString("timeout")}}, "Observed helm=true err=true",
				"DestructiveDone 0", "Observed helm=false err=true", "TaskFailed", "Publish", "Reply err=helm upgrade: timeout")
		}},
		{"afterHelm fails", func(h *harness) {
			h.step(ok(h.t, ""), "Ran", "Watch on=true sync=true")
			h.step(KubeSynced{}, "RunHook b-before.sh beforeHelm")
			h.step(ok(h.t, ""), "Ran", "RunHelm")
			h.step(HelmFinished{}, "Observed helm=true err=false", "DestructiveDone 0", "HelmUpgraded", "RunHook c-after.sh afterHelm")
			h.step(failed("exit status 2"), "Ran", "Observed helm=false err=true", "TaskFailed", "Publish",
				"Reply err=hook c-after.sh: exit status 2")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, true, lifecycleHooks())
			h.assign(newRun(), "Publish", "RunHook a-startup.sh onStartup")
			tc.fail(h)
			if h.core.state.StartupDone || h.core.state.LastError == "" {
				t.Errorf("state after the failure: %+v", h.core.state)
			}
			h.assign(newRun(), "Publish", "RunHook a-startup.sh onStartup")
		})
	}
}

type errString string

func (e errString) Error() string { return string(e) }
