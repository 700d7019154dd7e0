package module

import (
	"testing"

	"github.com/addon-actors/addon-operator/actors/worker"
)

// A module with webhook bindings registers them in its first run since it
// was enabled, after its CRDs and before onStartup; they are synced ahead
// of beforeHelm in every run; its delete removes them last, and only then
// is the module disabled and the task done.
func TestWebhooksFollowTheModule(t *testing.T) {
	h := newHarness(t, false, map[string]string{"a-startup.sh": onStartup, "b-before.sh": beforeHelm})
	h.core.serve.hasCRDs, h.core.serve.hasWebhooks = true, true
	h.assign(newRun(), "Publish", "ApplyCRDs")
	h.step(CRDsApplied{}, "RegisterWebhooks")
	wantPhase(t, h, EnsureWebhooks)
	h.step(CRDsApplied{}) // late: nothing
	h.step(WebhooksRegistered{}, "RunHook a-startup.sh onStartup")
	h.step(ok(t, ""), "Ran", "Watch on=true sync=false", "WebhooksSynced", "RunHook b-before.sh beforeHelm")
	h.step(ok(t, ""), "Ran", "Observed helm=false err=false", "ArmCheck", "Publish", "Reply ok")
	h.assign(newRun(), "Publish", "WebhooksSynced", "RunHook b-before.sh beforeHelm")
	h.step(ok(t, ""), "Ran", "Observed helm=false err=false", "Publish", "Reply ok") // the check is armed already

	h.step(Disabled{}, "DriftCounted", "Publish")
	h.assign(deleteTask(), "Publish", "Uninstall")
	h.step(DeleteFinished{Result: worker.DeleteResult{}}, "DestructiveDone 0", "UnregisterWebhooks")
	wantPhase(t, h, DropWebhooks)
	if !h.core.watching {
		t.Fatal("bindings stopped before the webhooks were removed")
	}
	h.step(WebhooksUnregistered{}, "Watch on=false sync=false", "Publish", "Publish", "Reply ok")
	h.step(WebhooksUnregistered{}) // late: nothing
}

// A failed registration fails the run, which registers again on retry; a
// failed removal fails the delete.
func TestWebhookFailuresFailTheTask(t *testing.T) {
	h := newHarness(t, false, map[string]string{"a-startup.sh": onStartup})
	h.core.serve.hasWebhooks = true
	h.assign(newRun(), "Publish", "RegisterWebhooks")
	h.step(WebhooksRegistered{Err: errString("register webhooks of demo: forbidden")},
		"Observed helm=false err=true", "TaskFailed", "Publish", "Reply err=register webhooks of demo: forbidden")
	h.assign(newRun(), "Publish", "RegisterWebhooks")
	h.step(WebhooksRegistered{}, "RunHook a-startup.sh onStartup")
	h.step(ok(t, ""), "Ran", "Watch on=true sync=false", "WebhooksSynced", "Observed helm=false err=false", "ArmCheck", "Publish", "Reply ok")
	h.step(Disabled{}, "DriftCounted", "Publish")
	h.assign(deleteTask(), "Publish", "Uninstall")
	h.step(DeleteFinished{Result: worker.DeleteResult{}}, "DestructiveDone 0", "UnregisterWebhooks")
	h.step(WebhooksUnregistered{Err: errString("remove webhooks of demo: timeout")}, "DeleteFailed", "TaskFailed", "Publish", "Reply err=remove webhooks of demo: timeout")
}
