// Package moduleobjects is the writer of the Module objects
// (modules.addon-operator.io): one per module the modules dirs hold and one
// named "global", their status computed by moduleobject from what the
// owners publish, and the Events their changes yield.
//
// The actor is a shell around a pure core: Core.Step(event, env) decides
// from the published state, the clock's ticks, the outcome of its writes
// and the leadership, and returns effects of a closed set (write a status,
// create or delete an object, emit an Event, arm a timer, log); the shell
// carries them out with client-go in goroutines that report back, so that
// no run of the operator ever waits for the apiserver. Only the leader
// writes; a status is written only when it changes, at most once a second
// per object (the last state always written), and not at all on a restart
// where nothing changed.
//
// The leader also watches its objects' reconcile-at and reset-at
// annotations (annotations.go): each new value asks the operator for a run
// now (messages.ReconcileModule), and the value is echoed in the status
// once the operator took it.
package moduleobjects
