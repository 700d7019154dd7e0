// Package owner is the owner kit: what the global actor and a module
// actor do alike as owners of hooks and values, written once for both.
//
// Its core side is Owner, a pure sub-machine an owner's core composes (as
// raft composes its progress tracker): the owner's values scope and its
// hook runs (a hookrun.Run per queue key), stepped with the owner events
// (CheckAsked, SectionChanged, HookEventArrived, HookRunEvent) and
// returning effects of a closed set. The owner's core keeps RunCommitted
// and RunFinished, which mean something of its own (a reload of all
// modules, a module run's next phase), and hands the others to its shell,
// wrapped in one effect of its own set.
//
// Its shell side is Shell.Apply, which carries those effects out in the
// owner's actor: the replies to the config actor, the queue's tasks, the
// hook run's snapshots, timer, worker job, record and config patch. The
// owner gives it what differs (its name, peers, worker per queue key, and
// how it publishes its scope).
//
// Files: core.go is the pure Owner, events.go its events and effects,
// apply.go the shell's Shell.
package owner
