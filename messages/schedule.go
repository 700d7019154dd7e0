package messages

import "github.com/addon-actors/addon-operator/hook/bindings"

// HookSchedule is one schedule binding of one hook.
type HookSchedule struct {
	Hook    string
	Version bindings.Version
	Binding bindings.ScheduleBinding
}

// WatchSchedules replaces the schedules of an owner (global, or a module
// while it is enabled); an empty list removes them.
type WatchSchedules struct {
	Owner     string
	Module    string
	Schedules []HookSchedule
}

// HoldEvents asks the queue actor to hold back (Hold) or release the hook
// runs of schedule ticks and Kubernetes events (tasks marked Event), in
// every queue, while module discovery is failing
// (spec/LIFECYCLE.md, "Modules discovery"). Nothing is lost: what was held
// is queued, in order, when they are released.
type HoldEvents struct {
	Hold bool
}
