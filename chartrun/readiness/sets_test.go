package readiness_test

import (
	"testing"

	"github.com/addon-actors/addon-operator/chartrun/readiness"
)

// sts is a StatefulSet "db" at generation 2 with the given spec and status fields.
func sts(spec, status string) string {
	return `{"apiVersion":"apps/v1","kind":"StatefulSet",
	"metadata":{"name":"db","namespace":"shop","generation":2},
	"spec":{` + spec + `"serviceName":"db","selector":{"matchLabels":{"app":"db"}},
		"template":{"metadata":{"labels":{"app":"db"}},"spec":{"containers":[{"name":"db","image":"postgres:17"}]}}},
	"status":{` + status + `}}`
}

const rolling = `"updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"partition":0}},`

func TestStatefulSet(t *testing.T) {
	runStatusCases(t, []statusCase{
		{"not observed", sts(`"replicas":3,`+rolling, `"observedGeneration":1,"replicas":3,"readyReplicas":3,"currentReplicas":3,"updatedReplicas":3,"currentRevision":"db-7c9f","updateRevision":"db-7c9f"`),
			readiness.Status{Tracked: true, Progress: "waiting for the controller to observe generation 2"}},
		{"rolling", sts(`"replicas":3,`+rolling, `"observedGeneration":2,"replicas":3,"readyReplicas":2,"currentReplicas":2,"updatedReplicas":1,"currentRevision":"db-7c9f","updateRevision":"db-86b4","availableReplicas":2`),
			readiness.Status{Tracked: true, Progress: "rolling out: 1/3 updated"}},
		{"all updated, revision not yet current", sts(`"replicas":3,`+rolling, `"observedGeneration":2,"replicas":3,"readyReplicas":3,"currentReplicas":0,"updatedReplicas":3,"currentRevision":"db-7c9f","updateRevision":"db-86b4"`),
			readiness.Status{Tracked: true, Progress: "rolling out: revision db-7c9f, updating to db-86b4"}},
		{"updated, 2/3 ready", sts(`"replicas":3,`+rolling, `"observedGeneration":2,"replicas":3,"readyReplicas":2,"currentReplicas":3,"updatedReplicas":3,"currentRevision":"db-86b4","updateRevision":"db-86b4"`),
			readiness.Status{Tracked: true, Progress: "2/3 ready"}},
		{"ready", sts(`"replicas":3,`+rolling, `"observedGeneration":2,"replicas":3,"readyReplicas":3,"currentReplicas":3,"updatedReplicas":3,"currentRevision":"db-86b4","updateRevision":"db-86b4","availableReplicas":3`),
			readiness.Status{Ready: true, Tracked: true, Progress: "3/3 ready"}},
		{"default strategy is rolling", sts(`"replicas":2,`, `"observedGeneration":2,"replicas":2,"readyReplicas":2,"updatedReplicas":0,"currentRevision":"db-7c9f","updateRevision":"db-86b4"`),
			readiness.Status{Tracked: true, Progress: "rolling out: 0/2 updated"}},
		{"partition, pods above it updated", sts(`"replicas":3,"updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"partition":2}},`,
			`"observedGeneration":2,"replicas":3,"readyReplicas":3,"currentReplicas":2,"updatedReplicas":1,"currentRevision":"db-7c9f","updateRevision":"db-86b4"`),
			readiness.Status{Ready: true, Tracked: true, Progress: "3/3 ready"}},
		{"partition, pod above it not yet updated", sts(`"replicas":3,"updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"partition":1}},`,
			`"observedGeneration":2,"replicas":3,"readyReplicas":3,"currentReplicas":2,"updatedReplicas":1,"currentRevision":"db-7c9f","updateRevision":"db-86b4"`),
			readiness.Status{Tracked: true, Progress: "rolling out: 1/2 updated (partition 1)"}},
		{"partition above replicas", sts(`"replicas":2,"updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"partition":5}},`,
			`"observedGeneration":2,"replicas":2,"readyReplicas":2,"currentReplicas":2,"currentRevision":"db-7c9f","updateRevision":"db-86b4"`),
			readiness.Status{Ready: true, Tracked: true, Progress: "2/2 ready"}},
		{"OnDelete, old revision ready", sts(`"replicas":2,"updateStrategy":{"type":"OnDelete"},`,
			`"observedGeneration":2,"replicas":2,"readyReplicas":2,"currentReplicas":2,"updatedReplicas":0,"currentRevision":"db-7c9f","updateRevision":"db-86b4"`),
			readiness.Status{Ready: true, Tracked: true, Progress: "2/2 ready"}},
		{"OnDelete, 1/2 ready", sts(`"replicas":2,"updateStrategy":{"type":"OnDelete"},`, `"observedGeneration":2,"replicas":2,"readyReplicas":1`),
			readiness.Status{Tracked: true, Progress: "1/2 ready"}},
	})
}

// ds is a DaemonSet "agent" at generation 5 with the given spec and status fields.
func ds(spec, status string) string {
	return `{"apiVersion":"apps/v1","kind":"DaemonSet",
	"metadata":{"name":"agent","namespace":"kube-system","generation":5},
	"spec":{` + spec + `"selector":{"matchLabels":{"app":"agent"}},
		"template":{"metadata":{"labels":{"app":"agent"}},"spec":{"containers":[{"name":"agent","image":"agent:2"}]}}},
	"status":{` + status + `}}`
}

func TestDaemonSet(t *testing.T) {
	ru := `"updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":1,"maxSurge":0}},`
	runStatusCases(t, []statusCase{
		{"not observed", ds(ru, `"observedGeneration":4,"currentNumberScheduled":3,"desiredNumberScheduled":3,"numberAvailable":3,"numberReady":3,"updatedNumberScheduled":3,"numberMisscheduled":0`),
			readiness.Status{Tracked: true, Progress: "waiting for the controller to observe generation 5"}},
		{"rolling", ds(ru, `"observedGeneration":5,"currentNumberScheduled":3,"desiredNumberScheduled":3,"numberAvailable":2,"numberReady":2,"numberUnavailable":1,"updatedNumberScheduled":1,"numberMisscheduled":0`),
			readiness.Status{Tracked: true, Progress: "rolling out: 1/3 updated"}},
		{"updated, 2/3 available", ds(ru, `"observedGeneration":5,"currentNumberScheduled":3,"desiredNumberScheduled":3,"numberAvailable":2,"numberReady":2,"numberUnavailable":1,"updatedNumberScheduled":3,"numberMisscheduled":0`),
			readiness.Status{Tracked: true, Progress: "2/3 available"}},
		{"ready", ds(ru, `"observedGeneration":5,"currentNumberScheduled":3,"desiredNumberScheduled":3,"numberAvailable":3,"numberReady":3,"updatedNumberScheduled":3,"numberMisscheduled":0`),
			readiness.Status{Ready: true, Tracked: true, Progress: "3/3 available"}},
		{"zero desired", ds(ru, `"observedGeneration":5,"currentNumberScheduled":0,"desiredNumberScheduled":0,"numberMisscheduled":0,"numberReady":0`),
			readiness.Status{Ready: true, Tracked: true, Progress: "0/0 available"}},
		{"OnDelete, old pods available", ds(`"updateStrategy":{"type":"OnDelete"},`, `"observedGeneration":5,"currentNumberScheduled":2,"desiredNumberScheduled":2,"numberAvailable":2,"numberReady":2,"updatedNumberScheduled":0`),
			readiness.Status{Ready: true, Tracked: true, Progress: "2/2 available"}},
	})
}
