// Package schedule is the schedule actor: it fires the `schedule` bindings
// of the global hooks and of enabled modules' hooks on their crontabs
// (robfig/cron/v3, seconds optional), through the injected clock, and at
// each tick sends the hook's owner (global or module/NAME) a
// messages.HookEvent with a Schedule binding context for the binding's
// queue (a Group context for a grouped binding; the snapshots a context
// carries are filled in by the owner when the hook starts). It queues
// nothing itself: the owner makes the task (hookrun.TaskOf), and the queue
// actor compacts waiting runs of one hook into one and holds them back
// while module discovery fails (messages.HoldEvents); the schedules keep
// their rhythm meanwhile. A crontab that matches no time, such as Feb 30,
// arms nothing and is logged as a warning naming the hook and binding.
// Restarted after a panic, the actor re-arms the schedules it was given.
package schedule
