package readiness

import (
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
)

// claim is ready when bound. A Lost claim's volume is gone and will not come
// back by waiting: it is Failed.
func claim(_ map[string]any, pvc *corev1.PersistentVolumeClaim) Status {
	switch pvc.Status.Phase {
	case corev1.ClaimBound:
		return Status{Ready: true, Progress: "bound"}
	case corev1.ClaimLost:
		return Status{Failed: true, Progress: "lost",
			Reason: fmt.Sprintf("volume %q of the claim is gone", pvc.Spec.VolumeName)}
	case corev1.ClaimPending, "":
		return Status{Progress: "pending"}
	}
	return Status{Progress: strings.ToLower(string(pvc.Status.Phase))}
}
