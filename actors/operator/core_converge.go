package operator

import (
	"maps"

	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/messages"
)

// handleConvergeSuperseded takes the queue's word that a reload dropped a
// failing converge: the graph in flight is forgotten, a dropped delete is
// taken back (the module counts as enabled again, so that the reload's
// discovery deletes it again if it is still disabled), and each dropped
// module run is noted for `module why`.
func (c *Core) convergeSuperseded(msg messages.ConvergeSuperseded, env Env) []Effect {
	if c.group != nil && c.group.of.ID == msg.Group {
		c.group = nil
	}
	if c.superseded == nil {
		c.superseded = map[string]board.Superseded{}
	}
	for _, t := range msg.Dropped {
		switch t.Kind {
		case messages.TaskModuleDelete:
			c.enabled[t.Module] = true
		case messages.TaskModuleRun:
			c.superseded[t.Module] = board.Superseded{Task: describeTask(t), By: msg.By.Reason, At: env.Now}
		}
	}
	return []Effect{c.publishConverge()}
}

// describeTask names a task for a note: queue, kind, and the attempts of
// a failing one.
func describeTask(t messages.Task) string {
	s := t.Queue + ":" + string(t.Kind)
	if t.Module != "" {
		s += ":" + t.Module
	}
	if t.Attempts > 0 {
		s += " failing (" + t.LastError + ")"
	}
	return s
}

// publishConverge publishes what the converge waits for, what reloads
// dropped and a refused modules set.
func (c *Core) publishConverge() Effect {
	s := board.ConvergeState{Superseded: maps.Clone(c.superseded), ModulesError: c.modulesError}
	if c.group != nil {
		s.Waits = c.group.waits()
	}
	return PublishConverge{State: s}
}
