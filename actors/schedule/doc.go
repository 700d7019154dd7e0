// Package schedule is the schedule actor: it fires the `schedule` bindings
// of the global hooks and of enabled modules' hooks on their crontabs
// (robfig/cron/v3, seconds optional), through the injected clock, and
// queues a hook run with a Schedule binding context for each tick, in the
// binding's queue (a Group context for a grouped binding; the snapshots a
// context carries are filled in by the owner when the hook starts). Runs of
// one hook that wait in a queue are compacted into one. While module
// discovery is failing every schedule is held back: its ticks keep their
// rhythm and their runs wait here, queued in order once it is released. A crontab that matches no time, such as Feb 30,
// arms nothing and is logged as a warning naming the hook and binding.
// Restarted after a panic, the actor re-arms the schedules it was given.
package schedule
