// Package lifecycle is the operator root's brain: the state machine of
// spec/LIFECYCLE.md and LIFECYCLE-STEPS.md. At start-up it waits for the
// first good configuration and for the global and module actors to have
// configured their hooks, hands every owner its ConfigMap section (invalid
// configuration stops start-up), then queues the global onStartup hooks and
// a "reload all modules". It owns the operator's tasks: reload all
// (beforeAll, then discovery), discovery (enabled flags and enabled scripts
// in module order, then module runs, deletes, purges and afterAll), purge
// and the end of a converge, after which the operator is ready. Afterwards
// it turns configuration changes into reload-all or module-run tasks.
package lifecycle
