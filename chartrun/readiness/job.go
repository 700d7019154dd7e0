package readiness

import (
	"fmt"
	"strings"

	batchv1 "k8s.io/api/batch/v1"
)

// job is ready when complete. A Job with Failed=True, or FailureTarget=True
// (the controller has decided it failed and is stopping its pods), never
// completes: it is Failed.
func job(obj map[string]any, j *batchv1.Job) Status {
	conds := conditions(obj)
	if _, ok := find(conds, string(batchv1.JobComplete), "True"); ok {
		return Status{Ready: true, Progress: "complete"}
	}
	for _, typ := range []batchv1.JobConditionType{batchv1.JobFailed, batchv1.JobFailureTarget} {
		if c, ok := find(conds, string(typ), "True"); ok {
			return Status{Failed: true, Progress: "failed", Reason: c.String()}
		}
	}
	st := Status{Progress: jobProgress(j)}
	if c, ok := find(conds, string(batchv1.JobSuspended), "True"); ok {
		st.Progress = "suspended: " + st.Progress
		st.Reason = c.String()
	}
	return st
}

// jobProgress reads "1/3 succeeded, 2 active, 1 failed"; a work-queue Job
// (no completions) has no denominator.
func jobProgress(j *batchv1.Job) string {
	s := j.Status
	parts := []string{fmt.Sprintf("%d succeeded", s.Succeeded)}
	if j.Spec.Completions != nil {
		parts[0] = ratio(s.Succeeded, *j.Spec.Completions, "succeeded")
	}
	if s.Active > 0 {
		parts = append(parts, fmt.Sprintf("%d active", s.Active))
	}
	if s.Failed > 0 {
		parts = append(parts, fmt.Sprintf("%d failed", s.Failed))
	}
	return strings.Join(parts, ", ")
}
