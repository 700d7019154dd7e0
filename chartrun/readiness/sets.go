package readiness

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
)

// statefulSet is ready when its controller observed it, the replicas it is
// meant to update are updated, and every replica is ready.
func statefulSet(obj map[string]any) Status {
	var ss appsv1.StatefulSet
	if err := decode(obj, &ss); err != nil {
		return unreadable(err)
	}
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
func statefulSetRollout(ss appsv1.StatefulSet, want int32) (Status, bool) {
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
func daemonSet(obj map[string]any) Status {
	var ds appsv1.DaemonSet
	if err := decode(obj, &ds); err != nil {
		return unreadable(err)
	}
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
