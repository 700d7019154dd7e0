package module

import (
	"log/slog"
	"slices"
	"testing"

	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/messages"
)

// TestSynchronizationAllowFailure: a Synchronization run of a binding with
// allowFailure runs as allowed (the metric counts its failure apart); its
// failure is reported and the module run goes on with the next step. A
// binding without it fails the run, which is retried.
func TestSynchronizationAllowFailure(t *testing.T) {
	syncCtx := []byte(`[{"binding":"pods","type":"Synchronization","objects":[]}]`)
	for _, tc := range []struct {
		name    string
		allowed bool
		after   []string // effects of the failed Synchronization run
		wantErr bool
	}{
		{"allowed: the run goes on", true, []string{"Ran", "HookFailureAllowed", "RunHook b-before.sh beforeHelm"}, false},
		{"not allowed: the run fails", false, []string{"Ran", "Observed helm=false err=true", "TaskFailed", "Publish",
			"Reply err=hook d-kube.sh: exit status 1"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, true, lifecycleHooks())
			h.assign(newRun(), "Publish", "RunHook a-startup.sh onStartup")
			h.step(ok(t, ""), "Ran", "Watch on=true sync=true")
			runs := messages.KubeSyncRuns{Runs: []messages.SyncRun{{Hook: "d-kube.sh", Binding: "pods",
				Context: syncCtx, AllowFailure: tc.allowed}}}
			started := h.step(KubeSynced{Runs: runs}, "RunHook d-kube.sh pods")
			if info := hookEffect(started[0]).(hookrun.RunHook).Info; info.AllowFailure != tc.allowed {
				t.Fatalf("RunHook info %+v, want AllowFailure %t", info, tc.allowed)
			}
			ended := h.step(failed("exit status 1"), tc.after...)
			if ran := hookEffect(ended[0]).(hookrun.Ran); ran.Info.AllowFailure != tc.allowed || ran.Err == nil {
				t.Fatalf("Ran %+v, want a failure with AllowFailure %t", ran, tc.allowed)
			}
			if tc.wantErr {
				if h.core.state.LastError == "" || h.core.state.StartupDone {
					t.Fatalf("state after the failure: %+v", h.core.state)
				}
				return
			}
			if e := ended[1].(Log); !slices.Equal(e.Args[:4], []any{"hook", "d-kube.sh", "binding", "pods"}) || e.Args[5] == nil {
				t.Fatalf("HookFailureAllowed %+v", e)
			}
			h.step(ok(t, ""), "Ran", "RunHelm")
		})
	}
}

// TestEventTaskAllowFailure: an event task (a named queue's
// Synchronization too) that allows failure fails as a task (the queue
// drops it), reported as allowed.
func TestEventTaskAllowFailure(t *testing.T) {
	for _, allowed := range []bool{true, false} {
		h := newHarness(t, true, lifecycleHooks())
		task := messages.Task{Kind: messages.TaskModuleHook, Queue: "q", Owner: messages.ModuleOwner("demo"), Module: "demo",
			Hook: "d-kube.sh", Binding: "pods", Sync: true, AllowFailure: allowed,
			Context: []byte(`[{"binding":"pods","type":"Synchronization","objects":[]}]`)}
		started := h.assign(task, "Publish", "RunHook d-kube.sh pods")
		if info := hookEffect(started[1]).(hookrun.RunHook).Info; info.AllowFailure != allowed || info.Queue != "q" {
			t.Fatalf("RunHook info %+v, want AllowFailure %t in q", info, allowed)
		}
		want := map[bool]string{true: "TaskFailed allowed", false: "TaskFailed"}[allowed]
		ended := h.step(failed("exit status 1"), "Ran", want, "Publish", "Reply err=hook d-kube.sh: exit status 1")
		if f := ended[1].(Log); (f.Level == slog.LevelWarn) != allowed {
			t.Fatalf("TaskFailed %+v, want at WARN %t", f, allowed)
		}
	}
}
