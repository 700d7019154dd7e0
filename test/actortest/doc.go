// Package actortest is the kit for testing actors by injecting messages: a
// fresh actor system per test (supervision/actorsys) with a discard logger,
// a fake clock and the inspector; a probe actor that is the sender of
// injected messages, so that replies come back to it and can be asserted
// with Expect and ExpectNoMessage; a synchronous dispatcher option for
// single-actor tests; LogHandler and ExpectLog to assert what an actor
// logs; and Standalone, the kit's TB for examples. Every actor a test
// spawns is stopped in its cleanup.
//
// It imports, of this module, only supervision and its sub-packages (the
// actor system, the inspector), so that the tests of the low layers
// (supervision, chartrun, ...) do not compile the actor tree. The kit on
// the operator's system, for tests that start the root, is
// test/actortest/tree; test/actortest/owners plays the owners of hook
// events.
package actortest
