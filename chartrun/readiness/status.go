package readiness

import (
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
)

// Status is an object's readiness.
type Status struct {
	Ready   bool
	Tracked bool // false for kinds that have no readiness (ConfigMap, Service, ...): they count as ready
	// Failed is set when the object will not become ready by waiting (a failed
	// Job, a lost claim, a CRD whose names are not accepted): the waiter can stop.
	Failed bool
	// Progress is short and in the present tense: "1/3 available",
	// "rolling out: 2/3 updated", "complete", "bound", "established".
	Progress string
	// Reason is set when the object is not ready and its conditions tell why,
	// e.g. `condition Progressing=False ProgressDeadlineExceeded: ...`.
	Reason string
}

// rule judges one kind.
type rule func(obj map[string]any) Status

// typed is the rule of a kind judged by its typed fields: check gets obj
// (for its conditions, read leniently) and obj decoded as T. An object
// that does not decode is unreadable.
func typed[T any](check func(obj map[string]any, t *T) Status) rule {
	return func(obj map[string]any) Status {
		var t T
		if err := decode(obj, &t); err != nil {
			return unreadable(err)
		}
		return check(obj, &t)
	}
}

// ruleFor returns the readiness rule of an apiVersion and kind, nil when the kind has none.
func ruleFor(apiVersion, kind string) rule {
	switch apiVersion + " " + kind {
	case "apps/v1 Deployment":
		return typed(deployment)
	case "apps/v1 StatefulSet":
		return typed(statefulSet)
	case "apps/v1 DaemonSet":
		return typed(daemonSet)
	case "batch/v1 Job":
		return typed(job)
	case "v1 PersistentVolumeClaim":
		return typed(claim)
	case "apiextensions.k8s.io/v1 CustomResourceDefinition":
		return crd
	}
	return nil
}

// Tracked reports whether Of has readiness rules for this apiVersion and kind,
// so the waiter knows which objects to watch.
func Tracked(apiVersion, kind string) bool {
	return ruleFor(apiVersion, kind) != nil
}

// Of returns the readiness of obj, judged by its apiVersion and kind:
//
//   - apps/v1 Deployment: the controller observed the current generation, every
//     replica (spec.replicas, default 1) is updated and available, and no old
//     replica is left. Paused: ready once observed. A false Progressing
//     condition (ProgressDeadlineExceeded) or a ReplicaFailure is the Reason.
//   - apps/v1 StatefulSet: observed; with RollingUpdate, the replicas above the
//     partition are updated and, with no partition, the current revision is the
//     update revision; every replica is ready. With OnDelete, ready replicas only.
//   - apps/v1 DaemonSet: observed; every desired pod is updated (not with
//     OnDelete) and available.
//   - batch/v1 Job: ready when Complete=True, Failed when Failed=True or
//     FailureTarget=True.
//   - v1 PersistentVolumeClaim: ready when Bound, Failed when Lost.
//   - apiextensions.k8s.io/v1 CustomResourceDefinition: ready when
//     Established=True, Failed when NamesAccepted=False.
//
// Any other kind is not tracked and counts as ready. A tracked object whose
// fields cannot be decoded is not ready, with the decoding error as Reason.
func Of(obj map[string]any) Status {
	apiVersion, _, _ := unstructured.NestedString(obj, "apiVersion")
	kind, _, _ := unstructured.NestedString(obj, "kind")
	r := ruleFor(apiVersion, kind)
	if r == nil {
		return Status{Ready: true}
	}
	st := r(obj)
	st.Tracked = true
	return st
}

// decode converts obj into a typed object; numbers may be int64 or float64.
func decode[T any](obj map[string]any, into *T) error {
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(obj, into); err != nil {
		kind, _, _ := unstructured.NestedString(obj, "kind")
		name, _, _ := unstructured.NestedString(obj, "metadata", "name")
		return fmt.Errorf("decode %s %q: %w", kind, name, err)
	}
	return nil
}

// unreadable is the status of a tracked object that does not decode.
func unreadable(err error) Status {
	return Status{Progress: "status unreadable", Reason: err.Error()}
}

// unobserved is the status of a workload whose controller has not yet seen
// its current spec; ok is false when it has.
func unobserved(generation, observed int64) (Status, bool) {
	if observed >= generation {
		return Status{}, false
	}
	return Status{Progress: fmt.Sprintf("waiting for the controller to observe generation %d", generation)}, true
}

// ratio formats "n/of" with a word: "2/3 updated".
func ratio(n, of int32, word string) string {
	return fmt.Sprintf("%d/%d %s", n, of, word)
}
