package readiness

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
)

// deployment is ready when its controller observed it, every replica runs the
// current template and is available, and no old replica is left.
func deployment(obj map[string]any) Status {
	var d appsv1.Deployment
	if err := decode(obj, &d); err != nil {
		return unreadable(err)
	}
	if st, waiting := unobserved(d.Generation, d.Status.ObservedGeneration); waiting {
		return st
	}
	want := replicas(d.Spec.Replicas)
	s := d.Status
	if d.Spec.Paused {
		return Status{Ready: true, Progress: fmt.Sprintf("paused: %s, %s",
			ratio(s.UpdatedReplicas, want, "updated"), ratio(s.AvailableReplicas, want, "available"))}
	}
	st := deploymentProgress(s, want)
	if !st.Ready {
		st.Reason = firstReason(conditions(obj),
			[2]string{string(appsv1.DeploymentReplicaFailure), "True"},
			[2]string{string(appsv1.DeploymentProgressing), "False"})
	}
	return st
}

// deploymentProgress judges an observed, unpaused Deployment by its counts.
func deploymentProgress(s appsv1.DeploymentStatus, want int32) Status {
	switch {
	case s.UpdatedReplicas < want:
		return Status{Progress: "rolling out: " + ratio(s.UpdatedReplicas, want, "updated")}
	case s.Replicas > s.UpdatedReplicas:
		return Status{Progress: fmt.Sprintf("rolling out: %d old %s left", s.Replicas-s.UpdatedReplicas,
			plural(s.Replicas-s.UpdatedReplicas, "replica", "replicas"))}
	case s.AvailableReplicas < want:
		return Status{Progress: ratio(s.AvailableReplicas, want, "available")}
	}
	return Status{Ready: true, Progress: ratio(s.AvailableReplicas, want, "available")}
}

// replicas is spec.replicas with the apiserver's default of 1.
func replicas(p *int32) int32 {
	if p == nil {
		return 1
	}
	return *p
}

func plural(n int32, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
