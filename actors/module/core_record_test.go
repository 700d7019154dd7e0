package module

import (
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/messages"
)

// The last run is recorded phase by phase with the clock's times, and the
// helm step with chartrun's action and reason.
func TestRunRecordPhasesAndHelm(t *testing.T) {
	h := newHarness(t, true, lifecycleHooks())
	h.assign(newRun(), "Publish", "RunHook a-startup.sh onStartup")
	h.env.Now = coreEpoch.Add(10 * time.Millisecond)
	h.step(ok(t, ""), "Ran", "Watch on=true sync=true")
	h.env.Now = coreEpoch.Add(30 * time.Millisecond)
	h.step(KubeSynced{}, "RunHook b-before.sh beforeHelm")
	h.env.Now = coreEpoch.Add(40 * time.Millisecond)
	h.step(ok(t, ""), "Ran", "RunHelm")
	h.env.Now = coreEpoch.Add(45 * time.Millisecond)
	h.step(HelmFinished{Result: worker.HelmResult{Outcome: worker.HelmOutcome{Action: "skipped", Revision: 2,
		Reason: "checksum equal, no object absent"}}},
		"DriftJudged", "Publish", "DriftCounted", // a skipped upgrade checked the drift
		"Observed helm=true err=false", "DestructiveDone 0", "HelmUpgraded", "RunHook c-after.sh afterHelm")
	h.env.Now = coreEpoch.Add(50 * time.Millisecond)
	h.step(ok(t, ""), "Ran", "Observed helm=false err=false", "ArmCheck", "Publish", "Reply ok")

	r := h.core.state.Run
	if r == nil || r.Kind != "ModuleRun" || r.Reason != "test" || r.Err != "" || !r.Started.Equal(coreEpoch) ||
		!r.Ended.Equal(coreEpoch.Add(50*time.Millisecond)) {
		t.Fatalf("run record: %+v", r)
	}
	ms := func(n int) time.Time { return coreEpoch.Add(time.Duration(n) * time.Millisecond) }
	phase := func(p string, start, end int) board.PhaseRecord {
		return board.PhaseRecord{Phase: p, Start: ms(start), End: ms(end)}
	}
	want := []board.PhaseRecord{phase("Startup", 0, 10), phase("KubeSync", 10, 30), phase("SyncHooks", 30, 30),
		phase("BeforeHelm", 30, 40), phase("Helm", 40, 45), phase("AfterHelm", 45, 50)}
	if len(r.Phases) != len(want) {
		t.Fatalf("phases %+v, want %+v", r.Phases, want)
	}
	for i := range want {
		if got := r.Phases[i]; got.Phase != want[i].Phase || !got.Start.Equal(want[i].Start) || !got.End.Equal(want[i].End) {
			t.Errorf("phase %d: %+v, want %+v", i, got, want[i])
		}
	}
	if hr := h.core.state.Helm; hr == nil || hr.Action != "skipped" || hr.Reason != "checksum equal, no object absent" ||
		hr.Revision != 2 || !hr.At.Equal(ms(45)) {
		t.Errorf("helm record: %+v", hr)
	}
}

// A failed run's record ends at the failing phase with the error; an
// event hook's task keeps the last run's record.
func TestRunRecordOfAFailureSurvivesEventTasks(t *testing.T) {
	h := newHarness(t, true, lifecycleHooks())
	h.assign(newRun(), "Publish", "RunHook a-startup.sh onStartup")
	h.step(failed("exit status 1"), "Ran", "Observed helm=false err=true", "TaskFailed", "Publish",
		"Reply err=hook a-startup.sh: exit status 1")
	before := h.core.state.Run
	if before == nil || before.Err != "hook a-startup.sh: exit status 1" || len(before.Phases) != 1 ||
		before.Phases[0].Phase != "Startup" || before.Phases[0].End.IsZero() {
		t.Fatalf("failed run record: %+v", before)
	}
	ev := messages.Task{Kind: messages.TaskModuleHook, Owner: "module/demo", Module: "demo", Hook: "d-kube.sh", Binding: "pods"}
	h.assign(ev, "Publish", "GetSnapshots")
	if h.core.state.Run != before {
		t.Errorf("an event task replaced the run record: %+v", h.core.state.Run)
	}
}

// A run in maintenance mode that left the release as it is records its
// helm step as skipped, with the reason and the revision that stays.
func TestRunRecordMaintenanceSkip(t *testing.T) {
	h := enabledAfterOneRun(t)
	h.step(SectionChanged{Section: demoSection, Maintenance: true},
		"MaintenanceSet", "Publish", "Publish", "ConfigReply changed=false err=\"\"", "Enqueue")
	h.assign(newRun(), "Publish", "RunHook b-before.sh beforeHelm")
	h.step(ok(t, ""), "Ran", "RunHelm maintenance")
	h.step(HelmFinished{Result: keptInMaintenance},
		"Observed helm=true err=false", "DestructiveDone 0", "HelmSkipped", "RunHook c-after.sh afterHelm")
	if hr := h.core.state.Helm; hr == nil || hr.Action != "skipped" || hr.Reason != keptInMaintenance.Outcome.Reason ||
		hr.Revision != 2 {
		t.Errorf("helm record: %+v", hr)
	}
}
