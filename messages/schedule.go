package messages

import "github.com/addon-actors/addon-operator/hookexec/bindings"

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

// HoldSchedules stops (Hold) or resumes the firing of every schedule: they
// are held back while module discovery is failing.
type HoldSchedules struct {
	Hold bool
}
