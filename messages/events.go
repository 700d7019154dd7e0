package messages

// HookEvent is what an event source (the kube actor's monitors, the
// schedule actor's cron) sends to the owner of a hook: a Kubernetes event,
// a schedule tick, or a binding's Synchronization. Only the owner (global or
// module/NAME) turns it into a task, so one place decides what runs.
type HookEvent struct {
	// Owner is the hook's owner: OwnerGlobal or ModuleOwner(name).
	Owner string
	Hook  string
	// Binding is the binding's name; Queue its queue (empty: main).
	Binding string
	Queue   string
	// AllowFailure is the binding's allowFailure.
	AllowFailure bool
	// Source says what happened; it is the task's Reason ("kubernetes
	// Pod", "Synchronization of Pod", "schedule */5 * * * * *").
	Source string
	// Context is the binding context (JSON array of one element); snapshots
	// it carries are filled in when the hook starts.
	Context []byte
	// Sync marks a binding's Synchronization: it stays one task (an owner
	// may wait for it) and values it changes trigger nothing.
	Sync bool
}
