package supervision

// The guardian's events, published on the actor system's event stream
// (supervision has its own: it sits below the messages the actors speak).

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
