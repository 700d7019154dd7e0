package readiness

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
)

// statefulSet is ready when its controller observed it, the replicas it is
// meant to update are updated, and every replica is ready.
func statefulSet(_ map[string]any, ss *appsv1.StatefulSet) Status {
	if st, waiting := unobserved(ss.Generation, ss.Status.ObservedGeneration); waiting {
		return st
	}
	want := replicas(ss.Spec.Replicas)
	if ss.Spec.UpdateStrategy.Type != appsv1.OnDeleteStatefulSetStrategyType {
		if st, rolling := statefulSetRollout(ss, want); rolling {
			return st
		}
	}
	if ss.Status.ReadyReplicas < want {
		return Status{Progress: ratio(ss.Status.ReadyReplicas, want, "ready")}
	}
	return Status{Ready: true, Progress: ratio(ss.Status.ReadyReplicas, want, "ready")}
}

// statefulSetRollout reports a RollingUpdate still under way. Pods below the
// partition keep the old revision on purpose, so with a partition only the
// pods above it must be updated and the revisions are not compared.
func statefulSetRollout(ss *appsv1.StatefulSet, want int32) (Status, bool) {
	var partition int32
	if ru := ss.Spec.UpdateStrategy.RollingUpdate; ru != nil && ru.Partition != nil {
		partition = *ru.Partition
	}
	toUpdate := max(want-partition, 0)
	s := ss.Status
	if s.UpdatedReplicas < toUpdate {
		progress := "rolling out: " + ratio(s.UpdatedReplicas, toUpdate, "updated")
		if partition > 0 {
			progress += fmt.Sprintf(" (partition %d)", partition)
		}
		return Status{Progress: progress}, true
	}
	if partition == 0 && s.CurrentRevision != s.UpdateRevision {
		return Status{Progress: fmt.Sprintf("rolling out: revision %s, updating to %s", s.CurrentRevision, s.UpdateRevision)}, true
	}
	return Status{}, false
}

// daemonSet is ready when its controller observed it and every node that
// should run its pod runs the current one (any one, with OnDelete), available.
func daemonSet(_ map[string]any, ds *appsv1.DaemonSet) Status {
	if st, waiting := unobserved(ds.Generation, ds.Status.ObservedGeneration); waiting {
		return st
	}
	s := ds.Status
	want := s.DesiredNumberScheduled
	if ds.Spec.UpdateStrategy.Type != appsv1.OnDeleteDaemonSetStrategyType && s.UpdatedNumberScheduled < want {
		return Status{Progress: "rolling out: " + ratio(s.UpdatedNumberScheduled, want, "updated")}
	}
	if s.NumberAvailable < want {
		return Status{Progress: ratio(s.NumberAvailable, want, "available")}
	}
	return Status{Ready: true, Progress: ratio(s.NumberAvailable, want, "available")}
}

// deployment is ready when its controller observed it, every replica runs the
// current template and is available, and no old replica is left.
func deployment(obj map[string]any, d *appsv1.Deployment) Status {
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
