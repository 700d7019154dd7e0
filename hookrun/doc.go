// Package hookrun is what an owner of hooks (the global actor or a
// module) decides a hook run with: pure code, shared by both owners, from
// the event that becomes a task to the result applied to the owner's
// values.
//
//   - Run (run.go, result.go), the state machine of one hook run (wants
//     snapshots? -> rate-limit token -> run -> patches applied once to the
//     owner's scope -> config patch written -> done), in the shape of the
//     owners' cores: Step(event, Env) returns effects of a closed set
//     (GetSnapshots, ArmTimer, RunHook, Ran, Committed, WriteConfigPatch,
//     Finished);
//   - the one place a hook run becomes a task (event.go): TaskOf for a
//     hook event (messages.HookEvent), SyncTaskOf for a Synchronization run
//     an owner takes in KubeSyncRuns, OrderTaskOf for one hook's step of an
//     ORDER binding; each carries its binding's allowFailure;
//   - Tasks (tasks.go), the owner's side of one task at a time (a module
//     has one for all queues, the global actor one per queue);
//   - the hooks (HookSet, ordered by binding), the binding context and
//     request of a run (request.go: OrderContext, RefillContexts, Request),
//     applying a result or a ConfigMap section to a values scope (Apply,
//     ApplySection), the token buckets of executionMinInterval (Limits),
//     and the peers an owner's effects go to, addressed by typed name
//     (Siblings, Sibling).
//
// Its subpackage owner is the owner kit built on these: the owner events
// and the hook-run wrapper, as the sub-machine both owners' cores compose
// and the shell that carries out its effects.
//
// It lives outside actors/ because it is not an actor, and outside hookexec
// because it is about an owner's values and tasks, not about running a
// process. It starts no process: its tests are table tests.
package hookrun
