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
// The decisions are pure code, all in Core's Step (core.go, syncwait.go,
// lifecycle.go): the actor's start (ready once its hooks are configured
// and their webhooks registered), one task per queue at a time (a hookrun.Tasks per queue), queues
// concurrently, each with its own hookrun.Run, and the GlobalSynchronization
// task, whose wait for the Synchronization runs is SyncWait, a pure part of
// the core. The actor (actor.go, shell.go, sync.go) only turns messages
// into events and carries out the effects, with one worker per queue. The
// global hooks' webhook bindings (webhooks.go) are registered once the
// hooks are configured, before the actor reports ready, and live as long
// as the operator.
package global
