package chartrun

import (
	"strings"

	"helm.sh/helm/v3/pkg/release"
)

// mayChangeAPIs says whether writing (or removing) a release whose history
// and new revision are these can change what the cluster serves, so that
// the capabilities must be discovered again: only a CustomResourceDefinition
// or an APIService can, and one named anywhere in a manifest or a helm hook
// counts (a mere mention costs one more discovery, never a stale one). What
// a chart's controllers register later is left to Options.CapabilitiesTTL,
// as it would be after any write: it happens after the write returns.
func mayChangeAPIs(releases ...*release.Release) bool {
	for _, rel := range releases {
		if rel == nil {
			continue
		}
		if namesAPIKind(rel.Manifest) {
			return true
		}
		for _, h := range rel.Hooks {
			if h != nil && namesAPIKind(h.Manifest) {
				return true
			}
		}
	}
	return false
}

func namesAPIKind(manifest string) bool {
	return strings.Contains(manifest, "CustomResourceDefinition") || strings.Contains(manifest, "APIService")
}
