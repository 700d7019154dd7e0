package messages

// Shutdown asks the operator root to stop its children in reverse start
// order; it replies ShutdownDone when the last one has stopped.
type Shutdown struct{}

// ShutdownDone is the reply to Shutdown.
type ShutdownDone struct{}

// ActorRestarted is published on the actor system's event stream after the
// guardian restarted an actor that panicked.
type ActorRestarted struct {
	Actor    string // actor path
	Reason   string // the panic value
	Message  string // type of the message being handled when it panicked
	Restarts int    // restarts within the guardian's window, this one included
}

// ActorGaveUp is published when the guardian stopped an actor that panicked
// too often to be restarted again.
type ActorGaveUp struct {
	Actor    string
	Reason   string
	Restarts int
}
