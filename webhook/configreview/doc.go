// Package configreview answers the admission reviews of ModuleConfig
// objects (moduleconfigs.addon-operator.io) before the apiserver stores
// them: the object is decoded and checked with moduleconfig.Validate
// against the module's definition as the operator loaded it (a Catalog),
// the same function the read side calls, so that an object the webhook
// lets through is one the operator will take, and one it denies names the
// field that is wrong.
//
// Review is pure: an AdmissionRequest and a Catalog in, a Verdict out.
// Runner puts it behind webhook/server's Dispatcher (server.Runner), which
// gives it the bounded TLS server of hooks' webhooks (body cap, reviews in
// flight, timeouts); Binding is the webhook as webhook/register writes it
// into a ValidatingWebhookConfiguration, with failurePolicy Ignore unless
// the operator is told Fail (docs/MODULECONFIG.md says why).
//
// A review is never a hook run: no process starts, and a review of a
// module no modules dir holds is allowed with a warning (its settings
// cannot be checked; the read side warns of it too).
package configreview
