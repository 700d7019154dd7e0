// Package hookrun is what the global and module owners decide with, as
// pure code: their hooks (HookSet, ordered by binding), the peers their
// effects go to (Siblings), and the state machine of one hook run of an
// owner (Run: snapshots, rate limit, run, values patch, config patch),
// whose effects are plain data the owner's actor shell carries out.
//
// It is not an actor and starts no process: its tests are table tests.
package hookrun
