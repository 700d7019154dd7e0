package readiness

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// Selector returns the label selector of a workload's pods (Deployment,
// StatefulSet, DaemonSet, Job: spec.selector's matchLabels and
// matchExpressions) as a string for a List call, e.g. "app=web,tier in (a,b)".
// It returns false for kinds without pods, and for objects whose selector is
// missing, empty (it would list every pod) or invalid.
func Selector(obj map[string]any) (string, bool) {
	apiVersion, _, _ := unstructured.NestedString(obj, "apiVersion")
	kind, _, _ := unstructured.NestedString(obj, "kind")
	switch apiVersion + " " + kind {
	case "apps/v1 Deployment", "apps/v1 StatefulSet", "apps/v1 DaemonSet", "batch/v1 Job":
	default:
		return "", false
	}
	raw, found, _ := unstructured.NestedFieldNoCopy(obj, "spec", "selector")
	selector, ok := raw.(map[string]any)
	if !found || !ok {
		return "", false
	}
	var ls metav1.LabelSelector
	if decode(selector, &ls) != nil {
		return "", false
	}
	sel, err := metav1.LabelSelectorAsSelector(&ls)
	if err != nil || sel.Empty() {
		return "", false
	}
	return sel.String(), true
}
