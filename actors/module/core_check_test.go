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
			want: [][]string{{"CheckObjects"}, {"ArmCheck"}, {"AbsentFound", "Enqueue", "ObserveDrift", "ArmCheck"}}},
		{name: "nothing absent", hasChart: true, setup: enable, events: []Event{CheckDue{}, ObjectsChecked{}, CheckDue{}},
			want: [][]string{{"CheckObjects"}, {"ObserveDrift", "ArmCheck"}, {"CheckObjects"}}},
		{name: "check failed", hasChart: true, setup: enable,
			events: []Event{CheckDue{}, ObjectsChecked{Err: errors.New("forbidden")}},
			want:   [][]string{{"CheckObjects"}, {"CheckFailed", "ArmCheck"}}},
		{name: "disabled meanwhile", hasChart: true, setup: enable, events: []Event{CheckDue{}, Disabled{}, absent},
			want: [][]string{{"CheckObjects"}, {"Publish"}, {"ArmCheck"}}},
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
		"AbsentFound", "Enqueue", "ObserveDrift", "ArmCheck")
	want := messages.NewModuleRun("demo", "absent: Deployment/web, Service/web")
	if got := effects[1].(Enqueue).Tasks; len(got) != 1 || got[0].MergeKey != want.MergeKey || got[0].Reason != want.Reason {
		t.Errorf("queued %+v, want %+v", got, want)
	}
}

func enable(h *harness) { h.core.State.Enabled = true }
