// Package supervision owns time and failure: the injected Clock (real and
// fake), the retry policies (exponential backoff and fixed delay) that decide
// when a failed task, discovery or helm run is tried again, the delivery of a
// retry message through the clock, the guardian strategy that restarts an
// actor after a panic and counts it, and System, the actor system every
// actor runs in (protoactor with the process's logger, the inspector's
// mailboxes and the guardian), without the tree the operator's root spawns.
package supervision
