package module

import (
	"fmt"

	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/messages"
)

// The events the module has as an owner of hooks and of a ConfigMap
// section, as the global actor has them too: its section changed, asked
// whether it would take one, an event for one of its hooks.

// stepOwner handles the owner's events.
func (c *Core) stepOwner(ev Event) []Effect {
	switch e := ev.(type) {
	case SectionChanged:
		return c.configChanged(e)
	case CheckAsked:
		return []Effect{CheckReply{Reply: hookrun.CheckSection(c.scope, c.owner(), e.Check)}}
	case HookEventArrived:
		if c.retiring {
			return nil
		}
		cur, running := c.Current()
		return []Effect{Enqueue{Tasks: []messages.Task{hookrun.EventTaskDuring(e.Event, cur, running)}}}
	default:
		panic(fmt.Sprintf("module: event %T has no case in stepOwner", ev))
	}
}

// sectionChanged takes the module's ConfigMap section. The echo of our own
// config patch write equals the config layer already: nothing changes.
func (c *Core) sectionChanged(section any, reloadFollows bool) []Effect {
	next, reply := hookrun.ApplySection(c.scope, c.owner(), section)
	if reply.Err != "" {
		return []Effect{ConfigReply{Reply: reply}}
	}
	c.scope = next
	out := []Effect{Publish{}, ConfigReply{Reply: reply}}
	if reply.Changed && c.state.Enabled && !reloadFollows {
		// The module queues its own run: the operator is not asked (unless
		// the same change reloads all modules, which runs this one).
		out = append(out, Enqueue{Tasks: []messages.Task{
			messages.NewModuleRun(c.names.Name, "module section of the ConfigMap changed")}})
	}
	return out
}
