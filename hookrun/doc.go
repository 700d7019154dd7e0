// Package hookrun is what the global and module owners decide with, as
// pure code shared by both:
//
//   - Run, the state machine of one hook run of an owner (wants
//     snapshots? -> rate-limit token -> run -> patches applied once to the
//     owner's scope -> config patch written -> done), whose Step returns
//     effects as plain data (GetSnapshots, ArmTimer, RunHook, Ran,
//     Committed, WriteConfigPatch, Finished) for the owner's actor to
//     carry out;
//   - TaskOf, the one place where a hook event (messages.HookEvent) becomes
//     a task, and Tasks, the FIFO that makes an owner run one task at a time;
//   - the hooks (HookSet, ordered by binding), the binding context and
//     request of a run (OrderContext, RefillContexts, Request), applying a
//     result to a values scope (Apply), the token buckets of
//     executionMinInterval (Limits), and the peers an owner's effects go
//     to (Siblings).
//
// It lives outside actors/ because it is not an actor, and outside hookexec
// because it is about an owner's values and tasks, not about running a
// process. It starts no process: its tests are table tests.
package hookrun
