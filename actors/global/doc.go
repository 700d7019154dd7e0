// Package global is the global actor: it owns the global hooks, the global
// values (values.yaml files, the ConfigMap's global section, the patches of
// global hooks) and the enabled flags global hooks set in memory. It runs
// global hook tasks from the queues through its worker child, applies their
// patches, writes their config patches through the config actor, publishes
// its values on the board for module actors and the debug API, and queues
// "reload all modules" when afterAll or an event hook changed global values.
// The global hooks' bindings start with TaskGlobalSync, after their onStartup
// hooks: kubernetes bindings first, whose Synchronization runs follow in
// main (and in named queues, waited for), then the schedules.
//
// Core code is in core.go and core_<concern>.go (and syncwait.go, its
// sub-machine); shell code in actor.go and shell.go. Every decision is in
// Core's Step, built with NewCore: the actor's start (core_start.go: ready
// once its hooks are configured and their webhooks registered), one task
// per queue at a time (a hookrun.Tasks per queue), queues concurrently,
// and the GlobalSynchronization task (core_sync.go), whose wait for the
// Synchronization runs is SyncWait, a pure sub-machine. What the global
// actor does as an owner, as a module does (the config check, its section,
// hook events, a hook run per queue and the global scope), is the
// composed hookrun/owner.Owner; the core keeps what a run's end means here
// and passes the rest to the shell wrapped in Owned, which owner.Shell
// carries out. Effects carry what their applier needs: the actor
// (actor.go, shell.go) reads no core state, it turns messages into events
// and carries out the effects, with one worker per queue. The global
// hooks' webhook bindings are registered once the hooks are configured,
// before the actor reports ready, and live as long as the operator.
package global
