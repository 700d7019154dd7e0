// Package tree is the actor test kit (test/actortest) on the operator's
// actor system, for the tests that start the operator's root
// (Kit.System.Start, StartWith). It compiles the actor tree; a test that
// only spawns its own actors uses test/actortest, which does not.
package tree
