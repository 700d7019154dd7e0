package whatif

import "github.com/addon-actors/addon-operator/board"

// stalledReason says what applying the candidate does for a module that is
// Stalled (its remediation.retries spent): a change of its values queues a
// run that takes the stalled one's place and starts at once; no change
// leaves it stalled. "" for a module that is not stalled.
func stalledReason(st board.ModuleState, m ModulePlan) string {
	switch {
	case !st.Stalled:
		return ""
	case m.Diff != "":
		return "stalled: its values change, so its run replaces the stalled one and starts at once"
	}
	return "stalled: nothing changes for it, so it stays stalled (its last error: " + st.LastError + ")"
}

// withReason appends more to reason, "; " between.
func withReason(reason, more string) string {
	if reason == "" || more == "" {
		return reason + more
	}
	return reason + "; " + more
}
