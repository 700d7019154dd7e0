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
		events   []any
		want     [][]string
	}{
		{name: "disabled", hasChart: true, events: []any{CheckDue{}}, want: [][]string{nil}},
		{name: "no chart", setup: enable, events: []any{CheckDue{}}, want: [][]string{nil}},
		{name: "in maintenance", hasChart: true, setup: func(h *harness) { enable(h); h.core.state.Maintenance = "x" },
			events: []any{CheckDue{}}, want: [][]string{nil}},
		{name: "busy", hasChart: true, setup: func(h *harness) {
			enable(h)
			h.core.tasks.Offer(hookrun.Assigned{Task: messages.NewModuleRun("demo", "x"), Queue: h.queue})
		}, events: []any{CheckDue{}}, want: [][]string{{"ArmCheck"}}},
		{name: "absent objects", hasChart: true, setup: enable, events: []any{CheckDue{}, CheckDue{}, absent},
			want: [][]string{{"CheckObjects"}, {"ArmCheck"}, {"AbsentFound", "Enqueue", "DriftJudged", "Publish", "DriftCounted"}}}, // armed by the busy one
		{name: "nothing absent", hasChart: true, setup: enable, events: []any{CheckDue{}, ObjectsChecked{}, CheckDue{}},
			want: [][]string{{"CheckObjects"}, {"DriftJudged", "Publish", "DriftCounted", "ArmCheck"}, {"CheckObjects"}}},
		{name: "check failed", hasChart: true, setup: enable,
			events: []any{CheckDue{}, ObjectsChecked{Err: errors.New("forbidden")}},
			want:   [][]string{{"CheckObjects"}, {"CheckFailed", "ArmCheck"}}},
		{name: "disabled meanwhile", hasChart: true, setup: enable, events: []any{CheckDue{}, Disabled{}, absent},
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

func enable(h *harness) { h.core.state.Enabled = true }

// TestDriftFollowsTheRelease: drift a check found shows in the module's
// state until a helm upgrade writes the release (cleared), or the module
// is disabled; with the drift mode off nothing is tracked.
func TestDriftFollowsTheRelease(t *testing.T) {
	found := ObjectsChecked{Check: worker.ReleaseCheck{Drift: []messages.DriftedObject{{Object: "Deployment ns/web", Kind: "Deployment",
		Fields: []messages.DriftField{{Path: "spec.replicas", Shown: "3 → 1"}}}}}}
	h := newHarness(t, true, nil)
	h.core.check.mode = DriftReport
	enable(h)
	h.core.state.StartupDone, h.core.watching = true, true
	h.step(CheckDue{}, "CheckObjects")
	effects := h.step(found, "DriftJudged", "Publish", "DriftCounted", "ArmCheck")
	if n := unwrap(effects[2]).(DriftCounted).Objects; n != 1 || len(h.core.state.Drift) != 1 {
		t.Fatalf("drifted objects %d, state %+v", n, h.core.state.Drift)
	}
	h.assign(newRun(), "Publish", "RunHelm")
	h.step(HelmFinished{Result: worker.HelmResult{Outcome: worker.HelmOutcome{Upgraded: true, Revision: 2}}},
		"DriftCleared", "Publish", "DriftCounted", "Observed helm=true err=false", "DestructiveDone 0", "HelmUpgraded",
		"Observed helm=false err=false", "Publish", "Reply ok") // the check is armed already
	if len(h.core.state.Drift) != 0 {
		t.Fatalf("drift %+v after the upgrade", h.core.state.Drift)
	}
	h.core.check.mode = DriftOff
	h.step(CheckDue{}, "CheckObjects")
	h.step(found, "DriftJudged", "Publish", "DriftCounted", "ArmCheck")
	if len(h.core.state.Drift) != 0 {
		t.Fatalf("drift %+v tracked with the mode off", h.core.state.Drift)
	}
}

// TestRestoreOutcomeReachesTheTracker: the worker's restore result is an
// event of the core. Restores that fail (a PATCH that RBAC forbids) are
// told as failed with their error, check after check, and never end as
// "given up"; restores that the worker did and that another writer undoes
// are given up after driftMaxRestores, and restored no more.
func TestRestoreOutcomeReachesTheTracker(t *testing.T) {
	forbidden := errors.New(`restore ConfigMap/ns/a: configmaps "a" is forbidden: cannot patch resource "configmaps"`)
	for _, tc := range []struct {
		name                    string
		done                    bool
		asked, restored, failed int
		givenUp                 int
	}{
		{name: "forbidden restores end as failed", done: false, asked: 5, failed: 5},
		{name: "restores undone by another writer are given up", done: true, asked: driftMaxRestores, restored: driftMaxRestores, givenUp: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var asked, restored, failed, givenUp int
			h := driftingInRestoreMode(t)
			for range 5 {
				h.step(CheckDue{}, "CheckObjects")
				for _, e := range h.core.Step(wrap(ObjectsChecked{Check: worker.ReleaseCheck{Drift: []messages.DriftedObject{drifted("ConfigMap/ns/a", "data.a")}}}), h.env) {
					switch e := unwrap(e).(type) {
					case DriftJudged:
						givenUp += len(e.Step.GiveUp)
					case RestoreDrift:
						asked++
						judged := restoreResult(t, h, e.Drift, tc.done, forbidden)
						restored, failed = restored+len(judged.Restored), failed+len(judged.Failed)
						givenUp += len(judged.GiveUp)
					}
				}
			}
			if asked != tc.asked || restored != tc.restored || failed != tc.failed || givenUp != tc.givenUp {
				t.Errorf("asked %d, restored %d, failed %d, given up %d; want %d, %d, %d, %d",
					asked, restored, failed, givenUp, tc.asked, tc.restored, tc.failed, tc.givenUp)
			}
		})
	}
}

// driftingInRestoreMode is an enabled, idle module in drift mode restore.
func driftingInRestoreMode(t *testing.T) *harness {
	h := newHarness(t, true, nil)
	h.core.check.mode = DriftRestore
	enable(h)
	h.core.state.StartupDone, h.core.watching = true, true
	return h
}

// restoreResult feeds the worker's result of the restore asked (all done,
// or all failed with err) and returns what the tracker judged of it.
func restoreResult(t *testing.T, h *harness, drift []messages.DriftedObject, done bool, err error) driftStep {
	t.Helper()
	result := worker.RestoreResult{Drift: drift, Err: err}
	if done {
		result.Restored, result.Err = objectsOf(drift), nil
	}
	effects := h.step(DriftRestored{Result: result}, "DriftJudged")
	judged := unwrap(effects[0]).(DriftJudged).Step
	if !done && (len(judged.Failed) != len(drift) || !errors.Is(judged.RestoreErr, err)) {
		t.Fatalf("failed %v with %v; want every object asked, with %v", objectsOf(judged.Failed), judged.RestoreErr, err)
	}
	return judged
}
