package worker

// Destructive actions on a module's release, the values of the action label
// of the destructive-actions metric. Each is logged at WARN with its reason
// where it happens.
const (
	// ActionPurge: a release this operator labelled whose module dir is
	// gone is uninstalled.
	ActionPurge = "purge"
	// ActionUninstall: a disabled module's release is uninstalled.
	ActionUninstall = "uninstall"
	// ActionAdopt: a release named after the module that this operator
	// did not label is taken over.
	ActionAdopt = "adopt"
	// ActionClear: a stuck release is rolled back or uninstalled before
	// its upgrade or install.
	ActionClear = "clear"
)

// Destructive is one destructive action with its reason, a bounded value
// fit for a metric label: for an uninstall or a purge, one of package
// operator's Cause constants (the task's Cause, which the operator's
// disabledBy chose when discovery queued the delete); for an adoption or
// a clear, chartrun's reasons.
type Destructive struct {
	Action string
	Reason string
}

// Removal says what an uninstall removed.
type Removal struct {
	// Revision and Status are those of the latest revision removed;
	// Revision is 0 when there was no release.
	Revision int
	Status   string
	// Destructive are the actions the helm layer took on the way (the
	// adoption of a release this operator did not label).
	Destructive []Destructive
}
