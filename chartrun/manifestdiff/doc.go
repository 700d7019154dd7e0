// Package manifestdiff compares two sets of Kubernetes manifests (a helm
// release's manifest and a chart rendered anew) object by object: which
// objects would be added, removed or changed, with a unified diff of each
// changed object. It is pure: no cluster, no helm.
package manifestdiff
