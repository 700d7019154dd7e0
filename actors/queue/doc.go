// Package queue is the queue actor: the main queue and the named queues of
// spec/LIFECYCLE.md. Each queue is FIFO and runs one task at a time; queues
// run concurrently. A task is run by asking its owner actor (RunTask) and
// waiting for its TaskDone. A failed task stays at the head of its queue and
// is retried after the supervision policy's delay, with its attempt count,
// last error and next retry time on the task; an allowFailure task is
// dropped instead. A task with a MergeKey is queued at most once while it
// waits; a compacting one (hook event runs) adds its binding contexts to
// the waiting one. While module discovery fails the operator has the
// queue hold back the runs of hook events (messages.HoldEvents, core_hold.go):
// they are queued, in the order they came, once it is released. After
// every change the queues are published as a
// messages.QueueSnapshot for /queue and metrics. Options.Queues are there
// from the start (the parallel queues). The end of a module run of a
// converge graph (Task.Group) is reported to the operator
// (messages.GroupRunReport); its afterHelm re-run stays in its queue and
// graph (core_group.go); a failed one steps aside while it waits for its retry
// (the tasks behind it run meanwhile).
//
// A change that concerns a failing module takes effect now
// (queues_supersede.go, core_superseding.go): a module run queued while a
// run of its module waits for a retry replaces that retry and runs at
// once; a reload queued behind a failing converge drops it and runs at
// once, and the operator is told (messages.ConvergeSuperseded).
//
// The decisions are pure: Core.Step (core.go, and the core_*.go files by
// concern) takes an Event (events.go) and returns Effects of a closed set
// (effects.go), over the bookkeeping of the type Queues (queues*.go); the
// Actor (actor.go, shell.go) translates messages to events and carries out
// the effects (apply.go): runs asked of owners and their watches, retry
// timers on the clock, snapshots (each Publish carries its own), logs,
// reports to the operator.
package queue
