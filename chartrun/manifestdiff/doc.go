// Package manifestdiff compares two sets of Kubernetes manifests (a helm
// release's manifest and a chart rendered anew) object by object: which
// objects would be added, removed or changed, with a unified diff of each
// changed object. ReadHead reads what names a document's object, for
// chartrun's reading of manifests too. It is pure: no cluster, no helm
// action (only helm's manifest splitting and hook annotation).
package manifestdiff
