package moduleobject_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/moduleobject"
)

func TestEvents(t *testing.T) {
	installed := enabled(moduleobject.Input{Run: done(""), Release: moduleobject.Release{Name: "web", Revision: 1,
		Action: "installed", At: t0}})
	upgraded := installed
	upgraded.Release = moduleobject.Release{Name: "web", Revision: 2, Action: "upgraded", At: t0.Add(time.Minute)}
	failed := enabled(moduleobject.Input{Run: done("hook a failed\ndetail"), Release: installed.Release,
		Retry: &moduleobject.Retry{Attempts: 1, LastError: "hook a failed"}})
	recovered := installed
	recovered.Run = &moduleobject.Run{Kind: "ModuleRun", Started: t0.Add(time.Hour), Ended: t0.Add(time.Hour + time.Second)}
	periodic := recovered
	periodic.Run = &moduleobject.Run{Kind: "ModuleRun", Started: t0.Add(2 * time.Hour), Ended: t0.Add(2*time.Hour + time.Second)}
	disabled := installed
	disabled.Enabled, disabled.EnabledBy = false, "ConfigMap"
	unmet := disabled
	unmet.Unmet, unmet.EnabledBy = []string{"db >= 2"}, "requirements"
	drifted := installed
	drifted.Drifted = 1
	givenUp := drifted
	givenUp.GivenUp = 1
	waiting := installed
	waiting.WaitingReady = "waiting for Deployment ns/web"
	uninstalled := disabled
	uninstalled.Release = moduleobject.Release{}
	cases := []struct {
		name     string
		old      *moduleobject.Input
		now      moduleobject.Input
		reasons  []string
		firstErr string
	}{
		{"cold install", nil, installed, []string{"ReleaseInstalled"}, ""},
		{"restart, nothing changed", nil, enabled(moduleobject.Input{Run: done("")}), nil, ""},
		{"upgrade", &installed, upgraded, []string{"ReleaseUpgraded"}, ""},
		{"failed run", &installed, failed, []string{"RunFailed"}, "hook a failed"},
		{"recovered", &failed, recovered, []string{"Recovered"}, ""},
		{"healthy periodic run", &recovered, periodic, nil, ""},
		{"disabled", &installed, disabled, []string{"Disabled"}, ""},
		{"enabled", &disabled, installed, []string{"Enabled"}, ""},
		{"requirements unmet", &installed, unmet, []string{"Disabled", "RequirementsUnmet"}, ""},
		{"drift", &installed, drifted, []string{"DriftDetected"}, ""},
		{"drift restored", &drifted, installed, []string{"DriftRestored"}, ""},
		{"drift given up", &drifted, givenUp, []string{"DriftRestoreGivenUp"}, ""},
		{"readiness timeout", &waiting, failed, []string{"ReadinessTimeout"}, "hook a failed"},
		{"uninstalled", &disabled, uninstalled, []string{"ReleaseUninstalled"}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			events := moduleobject.Events(tc.old, tc.now)
			var reasons []string
			for _, e := range events {
				reasons = append(reasons, e.Reason)
			}
			if !reflect.DeepEqual(reasons, tc.reasons) {
				t.Fatalf("reasons %q, want %q", reasons, tc.reasons)
			}
			if tc.firstErr != "" && (events[0].Note != tc.firstErr || events[0].Type != moduleobject.Warning) {
				t.Fatalf("event %+v, want a Warning with note %q", events[0], tc.firstErr)
			}
		})
	}
}

func TestFirstLine(t *testing.T) {
	for in, want := range map[string]string{"hook a failed\ndetail": "hook a failed", "\n  x  \n": "x",
		// a hook's stderr never reaches an object or an Event: it may hold values
		"hook b exited with code 1; last stderr lines:\n\nno db\nmore": "hook b exited with code 1",
		"ends:": "ends:", "": ""} {
		if got := moduleobject.FirstLine(in); got != want {
			t.Errorf("FirstLine(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLayerReason(t *testing.T) {
	for layer, want := range map[string]string{"enabled script": "EnabledScript", "ConfigMap": "ConfigMap",
		"": "Default", "module values.yaml": "ModuleValuesYaml"} {
		if got := moduleobject.LayerReason(layer); got != want {
			t.Errorf("LayerReason(%q) = %q, want %q", layer, got, want)
		}
	}
}
