package messages

// ReconcileModule asks the operator to run a module now (Module, or
// OwnerGlobal for the global hooks), as a user asked by an annotation on
// its Module object (actors/moduleobjects). Force makes the run's helm step
// upgrade the release even when it is up to date (reconcile-at); Reset is
// a reset-at: the run takes the place of a retry in backoff, its attempts
// counted from the start (any module run queued does: DESIGN §4). Why is
// the run's reason, shown in /queue.
type ReconcileModule struct {
	Module string
	Force  bool
	Reset  bool
	Why    string
}

// ReconcileAccepted is the operator's answer to ReconcileModule: the
// request was taken (its run queued, or none needed: the operator logs
// why).
type ReconcileAccepted struct{ Module string }
