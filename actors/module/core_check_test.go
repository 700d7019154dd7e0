package module

import (
	"errors"
	"testing"

	"github.com/addon-actors/addon-operator/actors/worker"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/messages"
)

// TestReleaseCheck: the periodic check asks the worker only for an idle,
// enabled module with a release outside maintenance; what it finds queues
// a run for absent objects and goes to the drift tracker, unless the
// module was disabled or put in maintenance meanwhile; the next check is
// armed after each result.
func TestReleaseCheck(t *testing.T) {
	absent := ObjectsChecked{Check: worker.ReleaseCheck{Absent: []string{"Deployment/web"}}}
	for _, tc := range []struct {
		name     string
		hasChart bool
		setup    func(h *harness)
		events   []Event
		want     [][]string
	}{
		{name: "disabled", hasChart: true, events: []Event{CheckDue{}}, want: [][]string{nil}},
		{name: "no chart", setup: enable, events: []Event{CheckDue{}}, want: [][]string{nil}},
		{name: "in maintenance", hasChart: true, setup: func(h *harness) { enable(h); h.core.State.Maintenance = "x" },
			events: []Event{CheckDue{}}, want: [][]string{nil}},
		{name: "busy", hasChart: true, setup: func(h *harness) {
			enable(h)
			h.core.tasks.Offer(hookrun.Assigned{Task: messages.NewModuleRun("demo", "x"), Queue: h.queue})
		}, events: []Event{CheckDue{}}, want: [][]string{{"ArmCheck"}}},
		{name: "absent objects", hasChart: true, setup: enable, events: []Event{CheckDue{}, CheckDue{}, absent},
			want: [][]string{{"CheckObjects"}, {"ArmCheck"}, {"AbsentFound", "Enqueue", "DriftJudged", "Publish", "DriftCounted", "ArmCheck"}}},
		{name: "nothing absent", hasChart: true, setup: enable, events: []Event{CheckDue{}, ObjectsChecked{}, CheckDue{}},
			want: [][]string{{"CheckObjects"}, {"DriftJudged", "Publish", "DriftCounted", "ArmCheck"}, {"CheckObjects"}}},
		{name: "check failed", hasChart: true, setup: enable,
			events: []Event{CheckDue{}, ObjectsChecked{Err: errors.New("forbidden")}},
			want:   [][]string{{"CheckObjects"}, {"CheckFailed", "ArmCheck"}}},
		{name: "disabled meanwhile", hasChart: true, setup: enable, events: []Event{CheckDue{}, Disabled{}, absent},
			want: [][]string{{"CheckObjects"}, {"DriftCounted", "Publish"}, {"ArmCheck"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, tc.hasChart, nil)
			if tc.setup != nil {
				tc.setup(h)
			}
			for i, ev := range tc.events {
				h.step(ev, tc.want[i]...)
			}
		})
	}
}

// TestAbsentObjectsQueueARun: the run queued for absent objects names them.
func TestAbsentObjectsQueueARun(t *testing.T) {
	h := newHarness(t, true, nil)
	enable(h)
	h.step(CheckDue{}, "CheckObjects")
	effects := h.step(ObjectsChecked{Check: worker.ReleaseCheck{Absent: []string{"Deployment/web", "Service/web"}}},
		"AbsentFound", "Enqueue", "DriftJudged", "Publish", "DriftCounted", "ArmCheck")
	want := messages.NewModuleRun("demo", "absent: Deployment/web, Service/web")
	if got := effects[1].(Enqueue).Tasks; len(got) != 1 || got[0].MergeKey != want.MergeKey || got[0].Reason != want.Reason {
		t.Errorf("queued %+v, want %+v", got, want)
	}
}

func enable(h *harness) { h.core.State.Enabled = true }

// TestDriftFollowsTheRelease: drift a check found shows in the module's
// state until a helm upgrade writes the release (cleared), or the module
// is disabled; with the drift mode off nothing is tracked.
func TestDriftFollowsTheRelease(t *testing.T) {
	found := ObjectsChecked{Check: worker.ReleaseCheck{Drift: []messages.DriftedObject{{Object: "Deployment ns/web", Kind: "Deployment",
		Fields: []messages.DriftField{{Path: "spec.replicas", Shown: "3 → 1"}}}}}}
	h := newHarness(t, true, nil)
	h.core.DriftMode = DriftReport
	enable(h)
	h.core.State.StartupDone, h.core.Watching = true, true
	h.step(CheckDue{}, "CheckObjects")
	effects := h.step(found, "DriftJudged", "Publish", "DriftCounted", "ArmCheck")
	if n := effects[2].(DriftCounted).Objects; n != 1 || len(h.core.State.Drift) != 1 {
		t.Fatalf("drifted objects %d, state %+v", n, h.core.State.Drift)
	}
	h.assign(newRun(), "Publish", "RunHelm")
	h.step(HelmFinished{Result: worker.HelmResult{Outcome: worker.HelmOutcome{Upgraded: true, Revision: 2}}},
		"DriftCleared", "Publish", "DriftCounted", "Observed helm=true err=false", "DestructiveDone 0", "HelmUpgraded",
		"Observed helm=false err=false", "ArmCheck", "Publish", "Reply ok")
	if len(h.core.State.Drift) != 0 {
		t.Fatalf("drift %+v after the upgrade", h.core.State.Drift)
	}
	h.core.DriftMode = DriftOff
	h.step(CheckDue{}, "CheckObjects")
	h.step(found, "DriftJudged", "Publish", "DriftCounted", "ArmCheck")
	if len(h.core.State.Drift) != 0 {
		t.Fatalf("drift %+v tracked with the mode off", h.core.State.Drift)
	}
}
