package module

import (
	"strings"

	"github.com/addon-actors/addon-operator/messages"
)

// The periodic release check (LIFECYCLE-STEPS step 15, and drift), as the
// core decides it; releasecheck.go and drifttrack.go carry it out.

// checkDue: the check's timer fired. An enabled module with a release
// asks its worker; a busy one (a run checks for itself) or one already
// looking tries again at the next interval; a disabled one or one in
// maintenance is armed again after its next successful run.
func (c *Core) checkDue() []Effect {
	if !c.State.Enabled || !c.HasChart || c.InMaintenance() {
		return nil
	}
	if c.Busy() || c.checking {
		return []Effect{ArmCheck{}}
	}
	c.checking = true
	return []Effect{CheckObjects{}}
}

// objectsChecked takes what the check found: absent objects queue a run
// that restores them, drift goes to the drift tracker; nothing is done for
// a module disabled or put in maintenance meanwhile. The next check is
// armed in every case.
func (c *Core) objectsChecked(e ObjectsChecked) []Effect {
	c.checking = false
	var out []Effect
	switch {
	case e.Err != nil:
		out = append(out, CheckFailed{Err: e.Err})
	case c.State.Enabled && !c.InMaintenance():
		if absent := e.Check.Absent; len(absent) > 0 {
			out = append(out, AbsentFound{Objects: absent}, Enqueue{Tasks: []messages.Task{
				messages.NewModuleRun(c.Names.Name, "absent: "+strings.Join(absent, ", "))}})
		}
		out = append(out, ObserveDrift{Found: e.Check.Drift})
	}
	return append(out, ArmCheck{})
}
