package readiness_test

import (
	"testing"

	"github.com/addon-actors/addon-operator/chartrun/readiness"
)

// deploy is a Deployment "web" at generation 4 with the given spec and status fields.
func deploy(spec, status string) string {
	return `{"apiVersion":"apps/v1","kind":"Deployment",
	"metadata":{"name":"web","namespace":"shop","generation":4,"uid":"0b7c1d0e-6f3a-4f8e-9a57-4f0d2b8e1c11"},
	"spec":{` + spec + `"selector":{"matchLabels":{"app":"web"}},
		"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":"25%","maxSurge":"25%"}},
		"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"nginx:1.27"}]}}},
	"status":{` + status + `}}`
}

const progressing = `{"type":"Progressing","status":"True","reason":"ReplicaSetUpdated","message":"ReplicaSet \"web-5d8f\" is progressing."}`

func TestDeployment(t *testing.T) {
	runStatusCases(t, []statusCase{
		{"new, generation not observed", deploy(`"replicas":3,`, `"observedGeneration":3,"replicas":3,"updatedReplicas":3,"readyReplicas":3,"availableReplicas":3`),
			readiness.Status{Tracked: true, Progress: "waiting for the controller to observe generation 4"}},
		{"fresh, no status yet", deploy(`"replicas":3,`, ``),
			readiness.Status{Tracked: true, Progress: "waiting for the controller to observe generation 4"}},
		{"rolling", deploy(`"replicas":3,`, `"observedGeneration":4,"replicas":4,"updatedReplicas":2,"readyReplicas":3,"availableReplicas":3,"unavailableReplicas":1,
			"conditions":[{"type":"Available","status":"True","reason":"MinimumReplicasAvailable","message":"Deployment has minimum availability."},`+progressing+`]`),
			readiness.Status{Tracked: true, Progress: "rolling out: 2/3 updated"}},
		{"old replica left", deploy(`"replicas":3,`, `"observedGeneration":4,"replicas":4,"updatedReplicas":3,"readyReplicas":4,"availableReplicas":4`),
			readiness.Status{Tracked: true, Progress: "rolling out: 1 old replica left"}},
		{"updated, 1/3 available", deploy(`"replicas":3,`, `"observedGeneration":4,"replicas":3,"updatedReplicas":3,"readyReplicas":1,"availableReplicas":1,"unavailableReplicas":2,
			"conditions":[{"type":"Available","status":"False","reason":"MinimumReplicasUnavailable","message":"Deployment does not have minimum availability."},`+progressing+`]`),
			readiness.Status{Tracked: true, Progress: "1/3 available"}},
		{"ready", deploy(`"replicas":3,`, `"observedGeneration":4,"replicas":3,"updatedReplicas":3,"readyReplicas":3,"availableReplicas":3,
			"conditions":[{"type":"Available","status":"True","reason":"MinimumReplicasAvailable"},{"type":"Progressing","status":"True","reason":"NewReplicaSetAvailable"}]`),
			readiness.Status{Ready: true, Tracked: true, Progress: "3/3 available"}},
		{"progress deadline exceeded", deploy(`"replicas":3,"progressDeadlineSeconds":600,`, `"observedGeneration":4,"replicas":4,"updatedReplicas":1,"readyReplicas":3,"availableReplicas":3,"unavailableReplicas":1,
			"conditions":[{"type":"Available","status":"True","reason":"MinimumReplicasAvailable"},
			{"type":"Progressing","status":"False","reason":"ProgressDeadlineExceeded","message":"ReplicaSet \"web-5d8f\" has timed out progressing."}]`),
			readiness.Status{Tracked: true, Progress: "rolling out: 1/3 updated",
				Reason: `condition Progressing=False ProgressDeadlineExceeded: ReplicaSet "web-5d8f" has timed out progressing.`}},
		{"replica failure", deploy(`"replicas":2,`, `"observedGeneration":4,"replicas":1,"updatedReplicas":1,"availableReplicas":1,
			"conditions":[`+progressing+`,{"type":"ReplicaFailure","status":"True","reason":"FailedCreate","message":"pods \"web-5d8f-x\" is forbidden: exceeded quota: pods"}]`),
			readiness.Status{Tracked: true, Progress: "rolling out: 1/2 updated",
				Reason: `condition ReplicaFailure=True FailedCreate: pods "web-5d8f-x" is forbidden: exceeded quota: pods`}},
		{"paused", deploy(`"replicas":3,"paused":true,`, `"observedGeneration":4,"replicas":4,"updatedReplicas":1,"availableReplicas":3,
			"conditions":[{"type":"Progressing","status":"Unknown","reason":"DeploymentPaused","message":"Deployment is paused"}]`),
			readiness.Status{Ready: true, Tracked: true, Progress: "paused: 1/3 updated, 3/3 available"}},
		{"paused, not observed", deploy(`"replicas":3,"paused":true,`, `"observedGeneration":3`),
			readiness.Status{Tracked: true, Progress: "waiting for the controller to observe generation 4"}},
		{"zero replicas", deploy(`"replicas":0,`, `"observedGeneration":4`),
			readiness.Status{Ready: true, Tracked: true, Progress: "0/0 available"}},
		{"zero replicas, old pods terminating", deploy(`"replicas":0,`, `"observedGeneration":4,"replicas":2`),
			readiness.Status{Tracked: true, Progress: "rolling out: 2 old replicas left"}},
		{"replicas unset means 1, not yet available", deploy(``, `"observedGeneration":4,"replicas":1,"updatedReplicas":1,"unavailableReplicas":1`),
			readiness.Status{Tracked: true, Progress: "0/1 available"}},
		{"replicas unset means 1, ready", deploy(``, `"observedGeneration":4,"replicas":1,"updatedReplicas":1,"readyReplicas":1,"availableReplicas":1`),
			readiness.Status{Ready: true, Tracked: true, Progress: "1/1 available"}},
		{"unreadable", deploy(`"replicas":"three",`, `"observedGeneration":4`),
			readiness.Status{Tracked: true, Progress: "status unreadable",
				Reason: `decode Deployment "web": unrecognized type: int32`}},
	})
}

// Objects built in Go (not decoded from JSON) carry int64 numbers.
func TestDeploymentInt64(t *testing.T) {
	obj := map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "web", "generation": int64(2)},
		"spec":     map[string]any{"replicas": int64(2)},
		"status":   map[string]any{"observedGeneration": int64(2), "replicas": int64(2), "updatedReplicas": int64(2), "availableReplicas": int64(2)},
	}
	want := readiness.Status{Ready: true, Tracked: true, Progress: "2/2 available"}
	if got := readiness.Of(obj); got != want {
		t.Errorf("Of = %+v, want %+v", got, want)
	}
}
