// Package hookrun is what the global and module owners decide with, as
// pure code shared by both:
//
//   - Run, the state machine of one hook run of an owner (wants
//     snapshots? -> rate-limit token -> run -> patches applied once to the
//     owner's scope -> config patch written -> done), in the shape of the
//     owners' cores: Step(event, Env) returns effects of a closed set
//     (GetSnapshots, ArmTimer, RunHook, Ran, Committed, WriteConfigPatch,
//     Finished) for the owner to keep or carry out;
//   - the one place a hook run becomes a task (event.go): TaskOf for a
//     hook event (messages.HookEvent), SyncTaskOf for a Synchronization run
//     an owner takes in KubeSyncRuns, OrderTaskOf for one hook's step of an
//     ORDER binding; each carries its binding's allowFailure;
//   - Tasks, the owner's side of one task at a time (a module has one for
//     all queues, the global actor one per queue);
//   - the hooks (HookSet, ordered by binding), the binding context and
//     request of a run (OrderContext, RefillContexts, Request), applying a
//     result to a values scope (Apply, ApplySection), the token buckets of
//     executionMinInterval (Limits), and the peers an owner's effects go
//     to, addressed by typed name (Siblings, Sibling).
//
// It lives outside actors/ because it is not an actor, and outside hookexec
// because it is about an owner's values and tasks, not about running a
// process. It starts no process: its tests are table tests.
package hookrun
