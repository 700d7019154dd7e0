package register

import (
	"fmt"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// ReleaseAction is what releasing a CRD's conversion does.
type ReleaseAction string

// The release actions.
const (
	// ReleaseNothing: the CRD is gone or converts without a webhook.
	ReleaseNothing ReleaseAction = "Nothing"
	// ReleaseToNone: the strategy goes back to None.
	ReleaseToNone ReleaseAction = "None"
	// ReleaseKeepServing: objects are stored in versions other than the
	// storage version, which only the webhook converts; the operator
	// must keep serving the conversion (and log Reason).
	ReleaseKeepServing ReleaseAction = "KeepServing"
)

// Release is the decision of ReleaseConversion.
type Release struct {
	Action         ReleaseAction
	StoredVersions []string
	Reason         string
}

// DecideRelease decides whether a CRD's conversion can go back to None:
// only when every stored object is in the storage version (its
// status.storedVersions is exactly that version), so that no object needs
// a conversion the apiserver cannot do by itself.
func DecideRelease(crd *apiextensionsv1.CustomResourceDefinition) Release {
	if crd == nil || crd.Spec.Conversion == nil || crd.Spec.Conversion.Strategy != apiextensionsv1.WebhookConverter {
		return Release{Action: ReleaseNothing}
	}
	stored := crd.Status.StoredVersions
	storage := storageVersion(crd)
	if len(stored) == 1 && stored[0] == storage {
		return Release{Action: ReleaseToNone, StoredVersions: stored}
	}
	return Release{Action: ReleaseKeepServing, StoredVersions: stored,
		Reason: fmt.Sprintf("objects may be stored in versions %v, the storage version is %s: only the webhook converts them; run the storage version migration first", stored, storage)}
}

func storageVersion(crd *apiextensionsv1.CustomResourceDefinition) string {
	for _, v := range crd.Spec.Versions {
		if v.Storage {
			return v.Name
		}
	}
	return ""
}
