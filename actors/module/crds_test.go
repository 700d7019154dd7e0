package module

import (
	"testing"

	"github.com/addon-actors/addon-operator/messages"
)

// A module with crds/ applies them before onStartup in its first run
// since it was enabled; the next run does not apply them again, nor does
// a module without crds/.
func TestCRDsBeforeTheFirstRun(t *testing.T) {
	h := newHarness(t, false, map[string]string{"a-startup.sh": onStartup, "b-before.sh": beforeHelm})
	h.core.serve.hasCRDs = true
	h.assign(newRun(), "Publish", "ApplyCRDs")
	wantPhase(t, h, EnsureCRDs)
	h.step(ok(t, "")) // not this phase's result: nothing
	h.step(CRDsApplied{}, "RunHook a-startup.sh onStartup")
	wantPhase(t, h, Startup)
	h.step(ok(t, ""), "Ran", "Watch on=true sync=false", "RunHook b-before.sh beforeHelm")
	h.step(ok(t, ""), "Ran", "Observed helm=false err=false", "ArmCheck", "Publish", "Reply ok")
	h.assign(newRun(), "Publish", "RunHook b-before.sh beforeHelm")
	h.step(ok(t, ""), "Ran", "Observed helm=false err=false", "Publish", "Reply ok") // the check is armed already
	h.step(CRDsApplied{})                                                            // late: nothing
}

// A failed apply fails the run (counted as a module run failure); its
// retry applies them again; a module disabled and enabled again applies
// them again.
func TestCRDsFailureAndReenable(t *testing.T) {
	h := newHarness(t, false, map[string]string{"a-startup.sh": onStartup})
	h.core.serve.hasCRDs = true
	h.assign(newRun(), "Publish", "ApplyCRDs")
	h.step(CRDsApplied{Err: errString("ensure CRDs: apply CRD x from f.yaml document 1: forbidden")},
		"Observed helm=false err=true", "TaskFailed", "Publish",
		"Reply err=ensure CRDs: apply CRD x from f.yaml document 1: forbidden")
	if h.core.state.StartupDone || h.core.state.LastError == "" {
		t.Errorf("state after the failure: %+v", h.core.state)
	}
	h.assign(newRun(), "Publish", "ApplyCRDs")
	h.step(CRDsApplied{}, "RunHook a-startup.sh onStartup")
	h.step(ok(t, ""), "Ran", "Watch on=true sync=false", "Observed helm=false err=false", "ArmCheck", "Publish", "Reply ok")
	h.step(Disabled{}, "DriftCounted", "Publish") // the bindings stay on for the delete
	h.assign(newRun(), "Publish", "Watch on=false sync=false", "ApplyCRDs")
}

// Without crds/ the first run starts with onStartup.
func TestNoCRDsStartsWithOnStartup(t *testing.T) {
	h := newHarness(t, false, map[string]string{"a-startup.sh": onStartup})
	h.assign(messages.NewModuleRun("demo", "test"), "Publish", "RunHook a-startup.sh onStartup")
}
