// Package crds applies a module's crds/ files (CustomResourceDefinitions)
// through the dynamic client, as the original addon-operator does before a
// newly enabled module's first run: created when absent, otherwise updated
// keeping the cluster's spec.conversion, with status.storedVersions pruned
// of versions the new spec drops; never deleted. Apply waits until each CRD
// is Established and its kinds are served, so that the module's kubernetes
// bindings resolve them at once.
package crds
