package messages

// Shutdown asks the operator root to stop its children in reverse start
// order; it replies ShutdownDone when the last one has stopped.
type Shutdown struct{}

// ShutdownDone is the reply to Shutdown.
type ShutdownDone struct{}

// OwnerReady is sent by the global actor and each module actor to the
// operator once its hooks are found and configured. A non-empty Err means
// they could not be: fatal for the global actor, the module's failure for a
// module actor.
type OwnerReady struct {
	Owner string
	Err   string
}

// CheckEnabled asks a module actor whether it is enabled: it runs its
// enabled script (if it has one) with EnabledBefore as
// global.enabledModules. The reply is EnabledChecked.
type CheckEnabled struct {
	EnabledBefore []string
}

// EnabledChecked answers CheckEnabled.
type EnabledChecked struct {
	Module  string
	Enabled bool
	// Unavailable: the module failed to start (its hooks could not be
	// configured); it is left out of discovery, its release left alone.
	Unavailable bool
	Err         string
}

// ModuleDisabled tells a module actor that discovery found it disabled, so
// that its next enabling runs onStartup again.
type ModuleDisabled struct{}

// ModuleRemoved tells a module actor that its dir is gone: it stops its
// bindings and leaves the board; the operator stops it next.
type ModuleRemoved struct{}
