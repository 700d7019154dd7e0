package moduleobject

import (
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Same tells whether writing b over a would change what the object says:
// the last run is left out (a healthy run that changed nothing, a restart's
// runs, write nothing; the last run is refreshed with the next change),
// and the times are compared as the apiserver returns them.
func Same(a, b Status) bool {
	a.LastRun, b.LastRun = nil, nil
	a.Conditions, b.Conditions = normal(a.Conditions), normal(b.Conditions)
	a.NextRetry, b.NextRetry = utc(a.NextRetry), utc(b.NextRetry)
	return reflect.DeepEqual(a, b)
}

func utc(t *metav1.Time) *metav1.Time {
	if t == nil {
		return nil
	}
	u := metav1.NewTime(t.UTC())
	return &u
}

// normal drops what a round trip through the apiserver changes: the time
// zone of lastTransitionTime, nil and empty lists.
func normal(list []metav1.Condition) []metav1.Condition {
	if len(list) == 0 {
		return nil
	}
	out := make([]metav1.Condition, len(list))
	for i, c := range list {
		c.LastTransitionTime = metav1.NewTime(c.LastTransitionTime.UTC())
		out[i] = c
	}
	return out
}
