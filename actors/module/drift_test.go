package module

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/messages"
)

func drifted(object string, paths ...string) messages.DriftedObject {
	d := messages.DriftedObject{Object: object, Kind: "ConfigMap"}
	for _, p := range paths {
		d.Fields = append(d.Fields, messages.DriftField{Path: p, Shown: `"a" → "b" (live)`})
	}
	return d
}

func objectsOf(ds []messages.DriftedObject) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Object)
	}
	return out
}

// The tracker's decisions over a sequence of checks: a drift is reported
// once while it stays the same, again when it changes or comes back after a
// restore; restore mode restores it; a field restored driftMaxRestores
// times that came back each time is given up once and not restored again,
// where a restore that failed counts for nothing;
// a drift that goes away is cleared and forgets its restores.
func TestDriftTracker(t *testing.T) {
	cm, other := "ConfigMap/ns/a", "ConfigMap/ns/b"
	type check struct {
		found   []messages.DriftedObject
		mode    string
		report  []string
		restore []string
		giveUp  []givenUp
		cleared []string
		failed  bool // the worker fails the restores asked
	}
	for _, tc := range []struct {
		name   string
		checks []check
	}{
		{name: "report mode reports once and never restores", checks: []check{
			{found: []messages.DriftedObject{drifted(cm, "data.a")}, mode: DriftReport, report: []string{cm}},
			{found: []messages.DriftedObject{drifted(cm, "data.a")}, mode: DriftReport},
			{found: []messages.DriftedObject{drifted(cm, "data.a", "data.b")}, mode: DriftReport, report: []string{cm}},
			{mode: DriftReport, cleared: []string{cm}},
		}},
		{name: "restore mode restores, a restore that holds clears it", checks: []check{
			{found: []messages.DriftedObject{drifted(cm, "data.a")}, mode: DriftRestore, report: []string{cm}, restore: []string{cm}},
			{mode: DriftRestore, cleared: []string{cm}},
			{found: []messages.DriftedObject{drifted(cm, "data.a")}, mode: DriftRestore, report: []string{cm}, restore: []string{cm}},
		}},
		{name: "a fight is given up after the restores, once", checks: []check{
			{found: []messages.DriftedObject{drifted(cm, "spec.replicas")}, mode: DriftRestore, report: []string{cm}, restore: []string{cm}},
			{found: []messages.DriftedObject{drifted(cm, "spec.replicas")}, mode: DriftRestore, report: []string{cm}, restore: []string{cm}},
			{found: []messages.DriftedObject{drifted(cm, "spec.replicas")}, mode: DriftRestore, report: []string{cm}, restore: []string{cm}},
			{found: []messages.DriftedObject{drifted(cm, "spec.replicas")}, mode: DriftRestore, report: []string{cm},
				giveUp: []givenUp{{Object: cm, Kind: "ConfigMap", Path: "spec.replicas"}}},
			{found: []messages.DriftedObject{drifted(cm, "spec.replicas")}, mode: DriftRestore},
		}},
		{name: "a given-up field does not stop the others' restores", checks: []check{
			{found: []messages.DriftedObject{drifted(cm, "x")}, mode: DriftRestore, report: []string{cm}, restore: []string{cm}},
			{found: []messages.DriftedObject{drifted(cm, "x")}, mode: DriftRestore, report: []string{cm}, restore: []string{cm}},
			{found: []messages.DriftedObject{drifted(cm, "x")}, mode: DriftRestore, report: []string{cm}, restore: []string{cm}},
			{found: []messages.DriftedObject{drifted(cm, "x", "y"), drifted(other, "z")}, mode: DriftRestore,
				report: []string{cm, other}, restore: []string{cm, other}, giveUp: []givenUp{{Object: cm, Kind: "ConfigMap", Path: "x"}}},
		}},
		{name: "restores that fail are never given up, nor reported again", checks: []check{
			{found: []messages.DriftedObject{drifted(cm, "data.a")}, mode: DriftRestore, report: []string{cm}, restore: []string{cm}, failed: true},
			{found: []messages.DriftedObject{drifted(cm, "data.a")}, mode: DriftRestore, restore: []string{cm}, failed: true},
			{found: []messages.DriftedObject{drifted(cm, "data.a")}, mode: DriftRestore, restore: []string{cm}, failed: true},
			{found: []messages.DriftedObject{drifted(cm, "data.a")}, mode: DriftRestore, restore: []string{cm}, failed: true},
			{found: []messages.DriftedObject{drifted(cm, "data.a")}, mode: DriftRestore, restore: []string{cm}},
		}},
		{name: "switching to restore restores what was only reported", checks: []check{
			{found: []messages.DriftedObject{drifted(cm, "data.a")}, mode: DriftReport, report: []string{cm}},
			{found: []messages.DriftedObject{drifted(cm, "data.a")}, mode: DriftRestore, restore: []string{cm}},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var tr driftTracker
			now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
			for i, c := range tc.checks {
				step := tr.observe(now.Add(time.Duration(i)*time.Minute), c.found, c.mode)
				if got := objectsOf(step.Report); !reflect.DeepEqual(got, c.report) {
					t.Errorf("check %d: report %v, want %v", i, got, c.report)
				}
				if got := objectsOf(step.Restore); !reflect.DeepEqual(got, c.restore) {
					t.Errorf("check %d: restore %v, want %v", i, got, c.restore)
				}
				if !reflect.DeepEqual(step.GiveUp, c.giveUp) || !reflect.DeepEqual(step.Cleared, c.cleared) {
					t.Errorf("check %d: give up %v, cleared %v; want %v, %v", i, step.GiveUp, step.Cleared, c.giveUp, c.cleared)
				}
				confirmRestores(&tr, step.Restore, c.failed)
			}
		})
	}
}

// confirmRestores gives the tracker the worker's result of the restores
// asked: all done, or all failed.
func confirmRestores(tr *driftTracker, asked []messages.DriftedObject, failed bool) {
	if len(asked) == 0 {
		return
	}
	restored := objectsOf(asked)
	var err error
	if failed {
		restored, err = nil, errors.New("forbidden")
	}
	tr.restoreDone(asked, restored, err)
}

// The state module why shows: since the first sighting, the fields, the
// restores it came back from and the fields given up; reset forgets all.
func TestDriftTrackerState(t *testing.T) {
	var tr driftTracker
	start := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	for i := range driftMaxRestores + 1 {
		step := tr.observe(start.Add(time.Duration(i)*time.Minute), []messages.DriftedObject{drifted("ConfigMap/ns/a", "data.a")}, DriftRestore)
		confirmRestores(&tr, step.Restore, false)
	}
	got := tr.state()
	if len(got) != 1 || got[0].Since != "2026-11-26T12:00:00Z" || got[0].Restores != driftMaxRestores ||
		!reflect.DeepEqual(got[0].GivenUp, []string{"data.a"}) || got[0].Fields[0] != `data.a: "a" → "b" (live)` {
		t.Fatalf("state %+v", got)
	}
	if cleared := tr.reset(); !reflect.DeepEqual(cleared, []string{"ConfigMap/ns/a"}) || len(tr.state()) != 0 {
		t.Fatalf("reset cleared %v, state %v", cleared, tr.state())
	}
}
