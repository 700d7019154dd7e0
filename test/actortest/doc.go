// Package actortest is the kit for testing actors by injecting messages: a
// fresh actor system per test with a discard logger, a fake clock and the
// inspector; a probe actor that is the sender of injected messages, so that
// replies come back to it and can be asserted with Expect and
// ExpectNoMessage; and a synchronous dispatcher option for single-actor
// tests. Every actor a test spawns is stopped in its cleanup.
package actortest
