package readiness_test

import (
	"testing"

	"github.com/addon-actors/addon-operator/chartrun/readiness"
)

// batchJob is a Job "migrate" with the given spec and status fields.
func batchJob(spec, status string) string {
	return `{"apiVersion":"batch/v1","kind":"Job",
	"metadata":{"name":"migrate","namespace":"shop","generation":1,"uid":"5f0c6a8e-2b1d-4e55-8f0a-1c2d3e4f5a6b"},
	"spec":{` + spec + `"backoffLimit":2,"selector":{"matchLabels":{"batch.kubernetes.io/controller-uid":"5f0c6a8e-2b1d-4e55-8f0a-1c2d3e4f5a6b"}},
		"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"migrate","image":"shop/migrate:3"}]}}},
	"status":{` + status + `}}`
}

func TestJob(t *testing.T) {
	one := `"completions":1,"parallelism":1,`
	runStatusCases(t, []statusCase{
		{"running", batchJob(one, `"startTime":"2026-05-01T10:00:00Z","active":1,"ready":0,"terminating":0,"uncountedTerminatedPods":{}`),
			readiness.Status{Tracked: true, Progress: "0/1 succeeded, 1 active"}},
		{"retrying", batchJob(`"completions":3,"parallelism":2,`, `"startTime":"2026-05-01T10:00:00Z","active":2,"succeeded":1,"failed":1`),
			readiness.Status{Tracked: true, Progress: "1/3 succeeded, 2 active, 1 failed"}},
		{"work queue", batchJob(`"parallelism":2,`, `"active":1,"succeeded":4`),
			readiness.Status{Tracked: true, Progress: "4 succeeded, 1 active"}},
		{"complete", batchJob(one, `"startTime":"2026-05-01T10:00:00Z","completionTime":"2026-05-01T10:00:20Z","succeeded":1,
			"conditions":[{"type":"SuccessCriteriaMet","status":"True","reason":"CompletionsReached","message":"Reached expected number of succeeded pods"},
			{"type":"Complete","status":"True","reason":"CompletionsReached","message":"Reached expected number of succeeded pods"}]`),
			readiness.Status{Ready: true, Tracked: true, Progress: "complete"}},
		{"failed", batchJob(one, `"startTime":"2026-05-01T10:00:00Z","failed":3,
			"conditions":[{"type":"FailureTarget","status":"True","reason":"BackoffLimitExceeded","message":"Job has reached the specified backoff limit"},
			{"type":"Failed","status":"True","reason":"BackoffLimitExceeded","message":"Job has reached the specified backoff limit"}]`),
			readiness.Status{Tracked: true, Failed: true, Progress: "failed",
				Reason: "condition Failed=True BackoffLimitExceeded: Job has reached the specified backoff limit"}},
		{"failure decided, pods terminating", batchJob(one, `"failed":1,"terminating":1,
			"conditions":[{"type":"FailureTarget","status":"True","reason":"DeadlineExceeded","message":"Job was active longer than specified deadline"}]`),
			readiness.Status{Tracked: true, Failed: true, Progress: "failed",
				Reason: "condition FailureTarget=True DeadlineExceeded: Job was active longer than specified deadline"}},
		{"suspended", batchJob(`"completions":1,"parallelism":1,"suspend":true,`,
			`"conditions":[{"type":"Suspended","status":"True","reason":"JobSuspended","message":"Job suspended"}]`),
			readiness.Status{Tracked: true, Progress: "suspended: 0/1 succeeded",
				Reason: "condition Suspended=True JobSuspended: Job suspended"}},
	})
}
