package moduleobject_test

import (
	"encoding/json"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/cli-utils/pkg/kstatus/status"

	"github.com/addon-actors/addon-operator/moduleobject"
)

var t0 = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

func done(err string) *moduleobject.Run {
	return &moduleobject.Run{Kind: "ModuleRun", Started: t0, Ended: t0.Add(1500 * time.Millisecond), Err: err}
}

func enabled(in moduleobject.Input) moduleobject.Input {
	in.Name, in.Decided, in.Enabled, in.EnabledBy = "web", true, true, "ConfigMap"
	return in
}

// the inputs of each phase, as the tests below use them.
var phases = []struct {
	name    string
	in      moduleobject.Input
	phase   moduleobject.Phase
	message string
	kstatus status.Status
}{
	{"ready", enabled(moduleobject.Input{Run: done(""), Release: moduleobject.Release{Name: "web", Revision: 3, ChartVersion: "1.2.0"}}),
		moduleobject.Ready, "release web revision 3 deployed", status.CurrentStatus},
	{"running", enabled(moduleobject.Input{Run: &moduleobject.Run{Kind: "ModuleRun", Started: t0}}),
		moduleobject.Running, "running ModuleRun", status.InProgressStatus},
	{"retrying", enabled(moduleobject.Input{Run: done("hook a failed\nstderr line"),
		Retry: &moduleobject.Retry{Attempts: 2, NextRetry: t0.Add(7 * time.Second), LastError: "hook a failed\nmore"}}),
		moduleobject.Retrying, "attempt 2 failed: hook a failed; next retry at 12:00:07", status.InProgressStatus},
	{"retry running", enabled(moduleobject.Input{Run: &moduleobject.Run{Kind: "ModuleRun", Started: t0},
		Retry: &moduleobject.Retry{Attempts: 2, Running: true, LastError: "x"}}),
		moduleobject.Running, "running ModuleRun", status.InProgressStatus},
	{"stalled", enabled(moduleobject.Input{Run: done("upgrade failed"), Stalled: true}),
		moduleobject.Stalled, "run failed and is held until something changes for the module: upgrade failed", status.FailedStatus},
	{"unseen", enabled(moduleobject.Input{Unseen: true, DirError: "dangling symlink"}),
		moduleobject.Unseen, "the module's dir cannot be seen: dangling symlink", status.FailedStatus},
	{"disabled", moduleobject.Input{Name: "web", Decided: true, EnabledBy: "ConfigMap"},
		moduleobject.Disabled, "disabled by the ConfigMap", status.CurrentStatus},
	{"requirements unmet", moduleobject.Input{Name: "web", Decided: true, EnabledBy: "requirements", Unmet: []string{"db >= 2"}},
		moduleobject.Disabled, "disabled: requirements unmet: db >= 2", status.CurrentStatus},
	{"maintenance", enabled(moduleobject.Input{Maintenance: "NoResourceReconciliation", Run: done("")}),
		moduleobject.Maintenance, "maintenance NoResourceReconciliation: helm does not run, its hooks do", status.CurrentStatus},
	{"waiting for readiness", enabled(moduleobject.Input{Run: &moduleobject.Run{Kind: "ModuleRun", Started: t0},
		WaitingReady: "waiting for Deployment ns/web: 1/3 available"}),
		moduleobject.WaitingForReadiness, "waiting for Deployment ns/web: 1/3 available", status.InProgressStatus},
	{"waiting for requirement", enabled(moduleobject.Input{WaitingFor: []string{"db"}}),
		moduleobject.WaitingForRequirement, "waiting for db", status.InProgressStatus},
	{"not discovered", moduleobject.Input{Name: "web"}, moduleobject.Pending, "not discovered yet", status.InProgressStatus},
	{"no run yet", enabled(moduleobject.Input{}), moduleobject.Pending, "waiting for its first run", status.InProgressStatus},
	{"global", moduleobject.Input{Name: "global", Global: true, Decided: true, Enabled: true, Run: done("")},
		moduleobject.Ready, "global hooks ran", status.CurrentStatus},
}

func TestComputePhaseAndMessage(t *testing.T) {
	for _, tc := range phases {
		t.Run(tc.name, func(t *testing.T) {
			st := moduleobject.Compute(tc.in, moduleobject.Status{}, 4, t0)
			if st.Phase != tc.phase || st.Message != tc.message {
				t.Fatalf("phase %q message %q, want %q %q", st.Phase, st.Message, tc.phase, tc.message)
			}
			for _, c := range st.Conditions {
				if c.ObservedGeneration != 4 || c.Reason == "" || c.Message == "" {
					t.Errorf("condition %+v: want observedGeneration 4, a reason and a message", c)
				}
			}
		})
	}
}

// TestKstatusCompute: kstatus reads a ready module as Current, one that
// runs or retries as InProgress, a stalled one as Failed.
func TestKstatusCompute(t *testing.T) {
	for _, tc := range phases {
		t.Run(tc.name, func(t *testing.T) {
			st := moduleobject.Compute(tc.in, moduleobject.Status{}, 1, t0)
			res, err := status.Compute(object(t, st, 1))
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != tc.kstatus {
				t.Fatalf("kstatus %s (%s), want %s", res.Status, res.Message, tc.kstatus)
			}
		})
	}
}

func object(t *testing.T, st moduleobject.Status, gen int64) *unstructured.Unstructured {
	t.Helper()
	raw, err := runtime.DefaultUnstructuredConverter.ToUnstructured(&st)
	if err != nil {
		t.Fatal(err)
	}
	u := &unstructured.Unstructured{Object: map[string]any{"status": raw}}
	u.SetAPIVersion(moduleobject.Group + "/" + moduleobject.Version)
	u.SetKind(moduleobject.Kind)
	u.SetName("web")
	u.SetGeneration(gen)
	return u
}

func condition(st moduleobject.Status, typ string) (metav1.Condition, bool) {
	for _, c := range st.Conditions {
		if c.Type == typ {
			return c, true
		}
	}
	return metav1.Condition{}, false
}

func TestComputeConditions(t *testing.T) {
	in := enabled(moduleobject.Input{Run: done(""), Drifted: 1, Webhooks: 2, WebhooksReady: 1, EnabledBy: "enabled script"})
	in.EnabledBy = "enabled script"
	st := moduleobject.Compute(in, moduleobject.Status{}, 1, t0)
	want := map[string]string{"Ready": "True Succeeded", "Enabled": "True EnabledScript",
		"RequirementsMet": "True RequirementsMet", "Drifted": "True DriftDetected",
		"WebhooksRegistered": "False WaitingForSynchronization"}
	for typ, w := range want {
		c, ok := condition(st, typ)
		if got := string(c.Status) + " " + c.Reason; !ok || got != w {
			t.Errorf("%s: %q, want %q", typ, got, w)
		}
	}
	if _, ok := condition(st, "Reconciling"); ok {
		t.Error("a ready module has a Reconciling condition")
	}
}

// TestComputeKeepsTransitionTime: a condition whose status stays keeps
// its lastTransitionTime; one that flips gets the new time.
func TestComputeKeepsTransitionTime(t *testing.T) {
	first := moduleobject.Compute(phases[0].in, moduleobject.Status{}, 1, t0)
	later := t0.Add(time.Hour)
	again := moduleobject.Compute(phases[0].in, first, 1, later)
	if c, _ := condition(again, "Ready"); !c.LastTransitionTime.Time.Equal(t0) {
		t.Fatalf("Ready's lastTransitionTime %s, want the first %s", c.LastTransitionTime, t0)
	}
	if !moduleobject.Same(first, again) {
		t.Fatal("the same input an hour later is not the same status")
	}
	failing := moduleobject.Compute(phases[2].in, again, 1, later)
	if c, _ := condition(failing, "Ready"); !c.LastTransitionTime.Time.Equal(later) {
		t.Fatalf("Ready flipped to False at %s, want %s", c.LastTransitionTime, later)
	}
}

// TestSameLeavesOutTheLastRun: a run that changed nothing writes nothing.
func TestSameLeavesOutTheLastRun(t *testing.T) {
	a := moduleobject.Compute(phases[0].in, moduleobject.Status{}, 1, t0)
	in := phases[0].in
	in.Run = &moduleobject.Run{Kind: "ModuleRun", Started: t0.Add(time.Minute), Ended: t0.Add(time.Minute + time.Second)}
	b := moduleobject.Compute(in, a, 1, t0.Add(time.Minute))
	if !moduleobject.Same(a, b) {
		t.Fatal("a second healthy run differs")
	}
	if moduleobject.Same(a, moduleobject.Compute(phases[2].in, a, 1, t0)) {
		t.Fatal("a failing run is the same as a ready one")
	}
}

// TestSameAfterARoundTrip: a status read back from the apiserver (JSON,
// times in the local zone) is the same as the one computed, in every
// phase, so that a restart where nothing changed writes nothing.
func TestSameAfterARoundTrip(t *testing.T) {
	for _, tc := range phases {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.in
			in.Release.Action, in.Release.At = "skipped", t0.In(time.FixedZone("X", 3600))
			st := moduleobject.Compute(in, moduleobject.Status{}, 2, t0)
			raw, err := json.Marshal(st)
			if err != nil {
				t.Fatal(err)
			}
			var back moduleobject.Status
			if err := json.Unmarshal(raw, &back); err != nil {
				t.Fatal(err)
			}
			if again := moduleobject.Compute(in, back, 2, t0.Add(time.Hour)); !moduleobject.Same(back, again) {
				t.Fatalf("read back %+v\ncomputed  %+v", back, again)
			}
		})
	}
}

func TestErrorIsBoundedFirstLine(t *testing.T) {
	in := phases[2].in
	long := make([]byte, 2000)
	for i := range long {
		long[i] = 'x'
	}
	in.Retry = &moduleobject.Retry{Attempts: 1, LastError: string(long) + "\nsecret: hunter2"}
	st := moduleobject.Compute(in, moduleobject.Status{}, 1, t0)
	if len(st.Error) > moduleobject.MaxError || st.Error == "" {
		t.Fatalf("error of %d bytes, want 1..%d", len(st.Error), moduleobject.MaxError)
	}
}
