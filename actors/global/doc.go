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
package global
