package module

import (
	"errors"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/values"
)

// unconfigured is a harness whose core has started but whose hooks are not
// configured yet.
func unconfigured(t *testing.T, enabledScript bool) *harness {
	t.Helper()
	o := demoOptions(t, false, values.Sections{})
	o.HasEnabledScript = enabledScript
	return harnessOf(t, NewCore(o))
}

// TestRequestsWaitForTheHooks: discovery and tasks that come before the
// hooks are configured wait, and are handled, in order, once they are; a
// module that failed to start is unavailable to discovery and drops its
// tasks.
func TestRequestsWaitForTheHooks(t *testing.T) {
	discovery := actor.NewPID("test", "operator")
	ask := EnabledAsked{From: discovery}
	for _, tc := range []struct {
		name       string
		configured Configured
		want       []string
		reply      messages.EnabledChecked
	}{
		{name: "configured", configured: Configured{Hooks: hookrun.HookSet{}},
			want:  []string{"Publish", "Ready", "EnabledReply", "Publish", "Watch on=true sync=false", "Observed helm=false err=false", "ArmCheck", "Publish", "Reply ok"},
			reply: messages.EnabledChecked{Module: "demo", Enabled: true}},
		{name: "failed", configured: Configured{Err: errors.New("hook x: bad config")},
			want:  []string{"StartFailed", "Publish", "Ready hook x: bad config", "ArmReconfigure 1", "EnabledReply", "TaskDropped"},
			reply: messages.EnabledChecked{Module: "demo", Unavailable: true, Err: "hook x: bad config"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := unconfigured(t, false)
			h.step(ask)
			h.assign(newRun())
			effects := h.step(tc.configured, tc.want...)
			for _, e := range effects {
				if got, ok := unwrap(e).(EnabledReply); ok && (!got.To.Equal(discovery) || got.Checked != tc.reply) {
					t.Errorf("discovery answered %+v, want %+v", got, tc.reply)
				}
			}
			h.step(ask, "EnabledReply")
		})
	}
}

// TestHooksConfiguredAgainAfterFailing: hooks that fail to configure are
// configured again after each failure's delay; the operator hears of the
// first failure only, and of the success, which brings the module back:
// discovery finds it available, its tasks run. The retry of a module whose
// dir is gone, or that configured meanwhile, does nothing.
func TestHooksConfiguredAgainAfterFailing(t *testing.T) {
	discovery := actor.NewPID("test", "operator")
	ask := EnabledAsked{From: discovery}
	h := unconfigured(t, false)
	h.step(Configured{Err: errors.New("hook x: apiserver away")}, "StartFailed", "Publish", "Ready hook x: apiserver away", "ArmReconfigure 1")
	h.step(ReconfigureDue{}, "Reconfigure")
	h.step(Configured{Err: errors.New("hook x: apiserver away")}, "StartFailed", "Publish", "ArmReconfigure 2")
	h.step(ask, "EnabledReply")
	h.step(ReconfigureDue{}, "Reconfigure")
	h.step(Configured{Hooks: hookrun.HookSet{}}, "Recovered", "Publish", "Ready")
	if h.core.state.Phase != "idle" || h.core.state.LastError != "" {
		t.Fatalf("state after recovery %+v", h.core.state)
	}
	effects := h.step(ask, "EnabledReply")
	if got := unwrap(effects[0]).(EnabledReply).Checked; got != (messages.EnabledChecked{Module: "demo", Enabled: true}) {
		t.Fatalf("discovery answered %+v after recovery", got)
	}
	h.step(ReconfigureDue{}) // configured meanwhile

	gone := unconfigured(t, false)
	gone.step(Configured{Err: errors.New("bad")}, "StartFailed", "Publish", "Ready bad", "ArmReconfigure 1")
	gone.step(Removed{}, "Forget")
	gone.step(ReconfigureDue{})
}

// TestEnabledScript: a module with an enabled script runs it with the
// modules enabled before it, and answers with its result; a result nobody
// waits for is dropped.
func TestEnabledScript(t *testing.T) {
	h := unconfigured(t, true)
	h.step(Configured{}, "Publish", "Ready")
	effects := h.step(EnabledAsked{EnabledBefore: []string{"first"}, From: h.queue}, "RunEnabledScript")
	if run := unwrap(effects[0]).(RunEnabledScript); string(run.Values) != `{"demo":{},"global":{"enabledModules":["first"]}}` {
		t.Errorf("enabled script's values %s", run.Values)
	}
	effects = h.step(EnabledScriptDone{Enabled: false, Err: errors.New("exit status 2")}, "EnabledReply")
	if got := unwrap(effects[0]).(EnabledReply).Checked; got != (messages.EnabledChecked{Module: "demo", Err: "exit status 2"}) {
		t.Errorf("reply %+v", got)
	}
	h.step(EnabledScriptDone{Enabled: true})
}

// TestRemoved: a removed module stops its bindings, forgets what it
// published, and publishes no more.
func TestRemoved(t *testing.T) {
	h := newHarness(t, true, lifecycleHooks())
	h.core.watching, h.core.serve.hasWebhooks, h.core.state.Maintenance = true, true, "NoResourceReconciliation"
	effects := h.step(Removed{}, "Watch on=false sync=false", "Forget")
	if f := effects[1].(Forget); f != (Forget{InMaintenance: true, Webhooks: true}) || !h.core.Removed() {
		t.Errorf("forget %+v, removed %t", f, h.core.Removed())
	}
	effects = h.step(SectionChanged{Section: map[string]any{"replicas": 2}, Maintenance: true}, "Publish", "ConfigReply changed=true err=\"\"")
	if p := effects[0].(Publish); p.Board || p.State.Name != "demo" {
		t.Errorf("published %+v after the removal, want the inspector only", p)
	}
	h = newHarness(t, true, nil)
	h.step(Removed{}, "Forget")
}

// TestHelmWaiting: what the helm step waits for shows in the state and as
// the task's status, since the first wait; the step's end clears it, and
// a wait reported after it is ignored. The helm step and the run are
// observed with the run's activation.
func TestHelmWaiting(t *testing.T) {
	h := newHarness(t, true, nil)
	h.core.state.StartupDone, h.core.watching = true, true
	run := newRun()
	run.ID, run.Queue, run.Activation = 4, messages.MainQueue, messages.ActivationStartup
	h.assign(run, "Publish", "RunHelm")
	h.step(HelmWaiting{NotReady: []string{"Deployment ns/web"}}, "Publish", "TaskStatus")
	h.env.Now = coreEpoch.Add(32 * time.Second)
	effects := h.step(HelmWaiting{NotReady: []string{"Deployment ns/web: 1/3"}}, "Publish", "TaskStatus")
	p := effects[1].(TaskStatus).Progress
	if p.ID != 4 || p.Queue != messages.MainQueue || !p.Since.Equal(coreEpoch) || p.Status != h.core.state.Wait.Text() {
		t.Errorf("status %+v", p)
	}
	effects = h.step(HelmFinished{}, "Observed helm=true err=false", "DestructiveDone 0", "HelmUpgraded", "Observed helm=false err=false",
		"ArmCheck", "Publish", "Reply ok")
	for _, i := range []int{0, 3} {
		if o := effects[i].(Observed); o.Activation != messages.ActivationStartup {
			t.Errorf("observed %+v, want the run's activation", o)
		}
	}
	if h.core.state.Wait != nil {
		t.Errorf("wait %+v after the step", h.core.state.Wait)
	}
	h.step(HelmWaiting{NotReady: []string{"late"}})
}
