// Package register puts hooks' webhook bindings into the cluster: one
// ValidatingWebhookConfiguration and one MutatingWebhookConfiguration per
// owner (a module, or "global"), named <configurationName>-<owner>, and the
// conversion strategy of CRDs. It writes only when the object in the
// cluster differs from what is wanted, and takes it all back when an
// owner's bindings go: the configurations are deleted and a CRD's
// conversion goes back to None when no object is lost by it
// (ReleaseConversion).
//
// The apiserver reaches the webhook server through an Endpoint: a Service
// (namespace, name, port 443 by default, as shell-operator), or a URL
// (https://127.0.0.1:PORT, for tests and local runs where no Service
// routes), with the CA bundle that signed the server's certificate.
package register
