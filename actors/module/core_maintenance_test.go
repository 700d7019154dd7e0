package module

import (
	"testing"

	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/messages"
)

var demoSection = map[string]any{"replicas": float64(1)}

// enabledAfterOneRun is a harness whose module has completed a run
// (enabled, onStartup done, the bindings on), at revision 1.
func enabledAfterOneRun(t *testing.T) *harness {
	t.Helper()
	h := newHarness(t, true, map[string]string{"b-before.sh": beforeHelm, "c-after.sh": afterHelm})
	h.assign(newRun(), "Publish", "Watch on=true sync=false", "RunHook b-before.sh beforeHelm")
	h.step(ok(t, ""), "Ran", "RunHelm")
	h.step(HelmFinished{Result: worker.HelmResult{Outcome: worker.HelmOutcome{Upgraded: true, Revision: 1}}},
		"Observed helm=true err=false", "DestructiveDone 0", "HelmUpgraded", "RunHook c-after.sh afterHelm")
	h.step(ok(t, ""), "Ran", "Observed helm=false err=false", "ArmCheck", "Publish", "Reply ok")
	return h
}

// keptInMaintenance is the worker's outcome of a helm step in maintenance
// that left the release as it is.
var keptInMaintenance = worker.HelmResult{Outcome: worker.HelmOutcome{Action: "skipped", Revision: 2,
	Reason: "maintenance mode: revision 2 is labelled maintenance.deckhouse.io/no-resource-reconciliation=true"}}

// TestMaintenanceSkipsHelmAndResumes: in maintenance a run's hooks run and
// its helm step runs in maintenance mode: the first writes the release
// labelled (an upgrade), the next leave it as it is (HelmSkipped; the run
// succeeds, the revision stays); back to Managed, a run is queued and its
// helm step upgrades as ever.
func TestMaintenanceSkipsHelmAndResumes(t *testing.T) {
	h := enabledAfterOneRun(t)
	effects := h.step(SectionChanged{Section: demoSection, Maintenance: true},
		"MaintenanceSet", "Publish", "Publish", "ConfigReply changed=false err=\"\"", "Enqueue")
	if got := effects[0].(MaintenanceSet).State; got != "NoResourceReconciliation" || h.core.state.Maintenance != got {
		t.Fatalf("maintenance state %q, published %q", got, h.core.state.Maintenance)
	}
	h.assign(newRun(), "Publish", "RunHook b-before.sh beforeHelm")
	h.step(ok(t, ""), "Ran", "RunHelm maintenance")
	h.step(HelmFinished{Result: worker.HelmResult{Outcome: worker.HelmOutcome{Action: "upgraded", Upgraded: true, Revision: 2}}},
		"Observed helm=true err=false", "DestructiveDone 0", "HelmUpgraded", "RunHook c-after.sh afterHelm")
	h.step(ok(t, ""), "Ran", "Observed helm=false err=false", "Publish", "Reply ok") // the check is armed already
	if s := h.core.state; s.Revision != 2 || s.LastError != "" {
		t.Fatalf("state after the labelling run in maintenance: %+v", s)
	}

	// A values change in maintenance runs the hooks; helm leaves the
	// release as it is, and no drift is looked at.
	h.step(SectionChanged{Section: map[string]any{"replicas": float64(2)}, Maintenance: true},
		"Publish", "ConfigReply changed=true err=\"\"", "Enqueue")
	h.assign(newRun(), "Publish", "RunHook b-before.sh beforeHelm")
	h.step(ok(t, ""), "Ran", "RunHelm maintenance")
	h.step(HelmFinished{Result: keptInMaintenance},
		"Observed helm=true err=false", "DestructiveDone 0", "HelmSkipped", "RunHook c-after.sh afterHelm")
	h.step(ok(t, ""), "Ran", "Observed helm=false err=false", "Publish", "Reply ok") // the check is armed already
	if s := h.core.state; s.Revision != 2 || s.LastError != "" {
		t.Fatalf("state after a run in maintenance: %+v", s)
	}

	effects = h.step(SectionChanged{Section: map[string]any{"replicas": float64(2)}},
		"MaintenanceSet", "Publish", "Publish", "ConfigReply changed=false err=\"\"", "Enqueue")
	if effects[0].(MaintenanceSet).State != "" || h.core.InMaintenance() {
		t.Fatalf("maintenance off: %+v, state %q", effects[0], h.core.state.Maintenance)
	}
	if task := effects[4].(Enqueue).Tasks[0]; task.Kind != messages.TaskModuleRun {
		t.Fatalf("queued %+v, want a module run", task)
	}
	h.assign(newRun(), "Publish", "RunHook b-before.sh beforeHelm")
	h.step(ok(t, ""), "Ran", "RunHelm")
	h.step(HelmFinished{Result: worker.HelmResult{Outcome: worker.HelmOutcome{Upgraded: true, Revision: 3}}},
		"Observed helm=true err=false", "DestructiveDone 0", "HelmUpgraded", "RunHook c-after.sh afterHelm")
}

// TestMaintenanceChanges covers every way the maintenance mode and the
// section arrive, with and without a reload of all modules to follow.
func TestMaintenanceChanges(t *testing.T) {
	for _, tc := range []struct {
		name    string
		enabled bool
		before  bool
		ev      SectionChanged
		want    []string
	}{
		{name: "unchanged and Managed: the section alone", enabled: true, ev: SectionChanged{Section: demoSection},
			want: []string{"Publish", "ConfigReply changed=false err=\"\""}},
		{name: "unchanged in maintenance: the section alone", enabled: true, before: true,
			ev:   SectionChanged{Section: demoSection, Maintenance: true},
			want: []string{"Publish", "ConfigReply changed=false err=\"\""}},
		{name: "on, module disabled: nothing queued", ev: SectionChanged{Section: demoSection, Maintenance: true},
			want: []string{"MaintenanceSet", "Publish", "Publish", "ConfigReply changed=false err=\"\""}},
		{name: "on with a new section: one run queued", enabled: true,
			ev:   SectionChanged{Section: map[string]any{"replicas": float64(3)}, Maintenance: true},
			want: []string{"MaintenanceSet", "Publish", "Publish", "ConfigReply changed=true err=\"\"", "Enqueue"}},
		{name: "on with a new section, a reload follows: the reload runs it", enabled: true,
			ev:   SectionChanged{Section: map[string]any{"replicas": float64(3)}, Maintenance: true, ReloadFollows: true},
			want: []string{"MaintenanceSet", "Publish", "Publish", "ConfigReply changed=true err=\"\""}},
		{name: "a new section, a reload follows: nothing queued", enabled: true,
			ev:   SectionChanged{Section: map[string]any{"replicas": float64(3)}, ReloadFollows: true},
			want: []string{"Publish", "ConfigReply changed=true err=\"\""}},
		{name: "a new section alone: one run queued", enabled: true,
			ev:   SectionChanged{Section: map[string]any{"replicas": float64(3)}},
			want: []string{"Publish", "ConfigReply changed=true err=\"\"", "Enqueue"}},
		{name: "off with a section the schema rejects: maintenance still ends", enabled: true, before: true,
			ev:   SectionChanged{Section: "not a section"},
			want: []string{"MaintenanceSet", "Publish", "ConfigReply changed=false err=%s", "Enqueue"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, true, nil)
			h.core.state.Enabled = tc.enabled
			if tc.before {
				h.core.state.Maintenance = "NoResourceReconciliation"
			}
			got := describe(h.core.Step(tc.ev, h.env))
			if len(got) != len(tc.want) {
				t.Fatalf("effects %q, want %q", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] && tc.want[i] != "ConfigReply changed=false err=%s" {
					t.Fatalf("effects %q, want %q", got, tc.want)
				}
			}
			if h.core.InMaintenance() != tc.ev.Maintenance {
				t.Fatalf("in maintenance %t, want %t", h.core.InMaintenance(), tc.ev.Maintenance)
			}
		})
	}
}

// TestMaintenanceSkipsNoDelete: a disabled module's release is uninstalled
// in maintenance too (maintenance stops reconciliation, not the disable).
func TestMaintenanceSkipsNoDelete(t *testing.T) {
	h := enabledAfterOneRun(t)
	h.core.state.Maintenance = "NoResourceReconciliation"
	h.assign(messages.Task{Kind: messages.TaskModuleDelete, Module: "demo"}, "Publish", "Uninstall")
}
