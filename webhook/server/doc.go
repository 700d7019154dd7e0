// Package server serves hooks' webhook bindings over TLS: one Server for
// admission (validating and mutating) and one for CRD conversion, as
// shell-operator has, with the certificate pair re-read when its files
// change. A Dispatcher turns each review into runs of a Runner (the
// operator's hook execution) and the reply package webhook builds from the
// hook's response file.
//
// The operator updates the Dispatcher while the servers run: Set(owner, …)
// when a module's hooks are loaded, Ready(owner, hook) when a hook's
// Synchronization is done (reviews for it wait until then, within the
// binding's timeout), Remove(owner) when the module is disabled; a path
// nobody serves gets shell-operator's "no hook found" reply.
//
// Each hook runs at most Concurrency reviews at once; more wait for a slot.
// A review's run gets a context whose deadline is the binding's
// timeoutSeconds (ConversionTimeout for conversions); when it passes the
// reply is sent without waiting for the run. The Runner must end the hook
// (its whole process group) when that context ends; its slot is given back
// only when the Runner returns, so a hook that ignores the context still
// never runs more than Concurrency times at once.
package server
