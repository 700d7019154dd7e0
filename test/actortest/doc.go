// Package actortest is the kit for testing actors by injecting messages: a
// fresh actor system per test (supervision.System) with a discard logger,
// a fake clock and the inspector; a probe actor that is the sender of
// injected messages, so that replies come back to it and can be asserted
// with Expect and ExpectNoMessage; EveryOwner, so that one actor plays all
// the owners an event source sends to; a synchronous dispatcher option for
// single-actor tests; LogHandler and ExpectLog to assert what an actor
// logs; Covered, which proves from source that an applier's type switch
// takes every effect of a sealed set, as do the functions it hands part of
// the set to, at any depth, each with a default that panics; Deps, the
// packages a package compiles, for tests that keep a layer below others;
// and Standalone, the kit's TB for examples. Every actor a test spawns is stopped in its cleanup.
//
// It imports, of this module, only supervision and its sub-package inspect
// (the actor system, the inspector), so that the tests of the low layers
// (supervision, chartrun, ...) do not compile the actor tree. A test that
// starts the operator's root builds its kit with On on the operator's
// system (actors/operator's tests do).
package actortest
