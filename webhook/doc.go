// Package webhook holds the pure parts of serving hooks' webhook bindings
// (shell-operator's kubernetesValidating, kubernetesMutating and
// kubernetesCustomResourceConversion): the bindings as small values
// (Admission, Conversion), the URL paths the apiserver calls, the chains of
// conversion steps across hooks, and the AdmissionReview and ConversionReview
// replies built from a hook's response file. Nothing here does I/O; the
// server (webhook/server) and the registration in the cluster
// (webhook/register) use it.
//
// Paths: an admission binding of owner O (a module name, or "global" for
// global hooks) named N is served at /O/SafeURLString(N); the owner is the
// configurationId of shell-operator's /<configurationId>/<webhookId>, so
// every owner gets one configuration object of each kind and global hooks
// keep an owner of their own rather than shell-operator's "hooks". A CRD's
// conversion is served at /<crdName>, as in shell-operator.
package webhook
