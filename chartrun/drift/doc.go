// Package drift decides whether a live Kubernetes object has drifted from what a helm
// release's manifest sets, and builds the JSON patch that restores only the drifted fields.
//
// It is the pure part of the drift check: it takes objects already decoded from JSON and
// returns values, with no I/O and no Kubernetes client. chartrun does the I/O: it reads the
// deployed release's manifest, gets each object from the apiserver, calls Compare, logs
// Summary and applies Patch.
//
// Only what the manifest sets is compared, as the apiserver would store it: numbers by value,
// quantities by amount ("500m" == "0.5"), int-or-string by its decimal form (8080 == "8080"),
// maps by key, lists by index. Fields the live object has and the manifest does not (defaults,
// other controllers' fields, annotations added by hand) are never drift, nor are empty
// manifest values ("", 0, false, null, {}, []) that the live object lacks, since the apiserver
// drops them. A Secret's stringData is compared with its data, where the apiserver puts it.
//
// Summary shows each field's manifest and live values, and never what may hold credentials:
// a Secret's data, a ConfigMap's data and binaryData and every env[].value show as masks
// ("(6 bytes, sha256:2bb80d53)", package values/mask), as does each value of a
// `format: password` setting the caller passes, wherever it appears.
//
// Fields that others own are left alone: the chart names them in the IgnoreAnnotation of
// the object, the caller in Compare's ignore argument.
//
// The patch tests each present field's live value before replacing it, so a field changed
// again since the object was read makes the whole patch fail rather than be overwritten;
// the caller reads the object again and compares anew.
//
// Known limits: a list whose length differs is restored whole, including any ignored
// fields under it (a sidecar injected into spec.containers makes the list drift unless that
// list is ignored); two strings that both parse as quantities ("1" and "1.0") are equal
// wherever they appear.
package drift
