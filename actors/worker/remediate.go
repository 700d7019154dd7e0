package worker

// RemediateJob follows a failed helm job of the module's release: a
// rollback to its last deployed revision (Rollback), the uninstall of a
// first install that never deployed (Uninstall); AfterWait: the release
// deployed and the wait for its workloads failed.
type RemediateJob struct {
	Module                         string
	Rollback, Uninstall, AfterWait bool
}

// Remedied is what a RemediateJob did: Action is chartrun's ("none",
// "rolled-back", "uninstalled"), Revision the one rolled back to.
type Remedied struct {
	Action   string
	Revision int
	Reason   string
}

// RemediateResult is a RemediateJob's outcome.
type RemediateResult struct {
	Remedied Remedied
	Err      error
}
