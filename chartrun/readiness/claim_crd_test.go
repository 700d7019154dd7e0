package readiness_test

import (
	"testing"

	"github.com/addon-actors/addon-operator/chartrun/readiness"
)

func pvc(volume, phase string) string {
	return `{"apiVersion":"v1","kind":"PersistentVolumeClaim",
	"metadata":{"name":"data-db-0","namespace":"shop"},
	"spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}},"storageClassName":"standard","volumeMode":"Filesystem"` + volume + `},
	"status":{"phase":"` + phase + `"}}`
}

func TestPersistentVolumeClaim(t *testing.T) {
	vol := `,"volumeName":"pvc-1f2e3d4c"`
	runStatusCases(t, []statusCase{
		{"pending", pvc(``, "Pending"), readiness.Status{Tracked: true, Progress: "pending"}},
		{"no phase yet", pvc(``, ""), readiness.Status{Tracked: true, Progress: "pending"}},
		{"bound", pvc(vol, "Bound"), readiness.Status{Ready: true, Tracked: true, Progress: "bound"}},
		{"lost", pvc(vol, "Lost"), readiness.Status{Tracked: true, Failed: true, Progress: "lost",
			Reason: `volume "pvc-1f2e3d4c" of the claim is gone`}},
	})
}

func crd(conditions string) string {
	return `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
	"metadata":{"name":"widgets.example.com","generation":1},
	"spec":{"group":"example.com","scope":"Namespaced","names":{"plural":"widgets","singular":"widget","kind":"Widget","listKind":"WidgetList"},
		"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object"}}}]},
	"status":{"acceptedNames":{"plural":"","kind":""},"storedVersions":["v1"],"conditions":[` + conditions + `]}}`
}

func TestCustomResourceDefinition(t *testing.T) {
	accepted := `{"type":"NamesAccepted","status":"True","reason":"NoConflicts","message":"no conflicts found"}`
	runStatusCases(t, []statusCase{
		{"established", crd(accepted + `,{"type":"Established","status":"True","reason":"InitialNamesAccepted","message":"the initial names have been accepted"}`),
			readiness.Status{Ready: true, Tracked: true, Progress: "established"}},
		{"not yet established", crd(accepted + `,{"type":"Established","status":"False","reason":"Installing","message":"the initial names have been accepted"}`),
			readiness.Status{Tracked: true, Progress: "waiting to be established",
				Reason: "condition Established=False Installing: the initial names have been accepted"}},
		{"no conditions yet", crd(``),
			readiness.Status{Tracked: true, Progress: "waiting to be established"}},
		{"names not accepted", crd(`{"type":"NamesAccepted","status":"False","reason":"KindConflict","message":"\"Widget\" is already in use"},
			{"type":"Established","status":"False","reason":"NotAccepted","message":"not all names are accepted"}`),
			readiness.Status{Tracked: true, Failed: true, Progress: "names not accepted",
				Reason: `condition NamesAccepted=False KindConflict: "Widget" is already in use`}},
	})
}

func TestUntracked(t *testing.T) {
	runStatusCases(t, []statusCase{
		{"ConfigMap", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"web"},"data":{"a":"b"}}`, readiness.Status{Ready: true}},
		{"Service", `{"apiVersion":"v1","kind":"Service","metadata":{"name":"web"},"spec":{"ports":[{"port":80}]}}`, readiness.Status{Ready: true}},
		{"old apiVersion", `{"apiVersion":"extensions/v1beta1","kind":"Deployment","metadata":{"name":"web"}}`, readiness.Status{Ready: true}},
		{"no kind", `{}`, readiness.Status{Ready: true}},
	})
}

func TestTracked(t *testing.T) {
	for _, tc := range []struct {
		apiVersion, kind string
		want             bool
	}{
		{"apps/v1", "Deployment", true},
		{"apps/v1", "StatefulSet", true},
		{"apps/v1", "DaemonSet", true},
		{"batch/v1", "Job", true},
		{"v1", "PersistentVolumeClaim", true},
		{"apiextensions.k8s.io/v1", "CustomResourceDefinition", true},
		{"v1", "ConfigMap", false},
		{"batch/v1", "CronJob", false},
		{"apps/v1", "ReplicaSet", false},
		{"example.com/v1", "Deployment", false},
	} {
		if got := readiness.Tracked(tc.apiVersion, tc.kind); got != tc.want {
			t.Errorf("Tracked(%q, %q) = %v, want %v", tc.apiVersion, tc.kind, got, tc.want)
		}
	}
}
