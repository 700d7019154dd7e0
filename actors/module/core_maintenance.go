package module

import (
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/values/configmap"
)

// Maintenance mode (UPSTREAM.md §7): while the ConfigMap's "xMaintenance"
// key says NoResourceReconciliation, the module's hooks run as ever (every
// binding), its helm step runs in maintenance mode (RunHelm.Maintenance:
// chartrun writes the release once with its objects labelled, then leaves
// it as it is, and the run succeeds) and nothing heals its release's absent
// objects. Leaving it queues a run, whose helm step reconciles the release
// again.

// InMaintenance tells whether the module is in maintenance mode.
func (c *Core) InMaintenance() bool { return c.state.Maintenance != "" }

// configChanged takes the module's ConfigMap section and maintenance mode.
// The maintenance key was validated with the ConfigMap, so it applies even
// when the module's schema rejects the section.
func (c *Core) configChanged(e SectionChanged) []Effect {
	state := ""
	if e.Maintenance {
		state = configmap.NoResourceReconciliation
	}
	if state == c.state.Maintenance {
		return c.sectionChanged(e.Section, e.ReloadFollows)
	}
	c.state.Maintenance = state
	section := c.sectionChanged(e.Section, e.ReloadFollows)
	out := append([]Effect{MaintenanceSet{State: state}, Publish{}}, section...)
	if c.state.Enabled && !queues(section) && !e.ReloadFollows {
		// As the original: a change either way runs the module; leaving
		// maintenance reconciles the release at its helm phase.
		out = append(out, Enqueue{Tasks: []messages.Task{messages.NewModuleRun(c.names.Name, maintenanceCause(state))}})
	}
	return out
}

// queues tells whether effects queue a task.
func queues(effects []Effect) bool {
	for _, e := range effects {
		if _, ok := e.(Enqueue); ok {
			return true
		}
	}
	return false
}

func maintenanceCause(state string) string {
	if state == "" {
		return "maintenance mode off (Managed)"
	}
	return "maintenance mode " + state
}
