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
func (l *lifecycle) handleConvergeSuperseded(msg messages.ConvergeSuperseded) {
	if l.group != nil && l.group.id == msg.Group {
		l.group = nil
	}
	if l.superseded == nil {
		l.superseded = map[string]board.Superseded{}
	}
	now := l.opts.Clock.Now()
	for _, t := range msg.Dropped {
		switch t.Kind {
		case messages.TaskModuleDelete:
			l.enabled[t.Module] = true
		case messages.TaskModuleRun:
			l.superseded[t.Module] = board.Superseded{Task: describeTask(t), By: msg.By.Reason, At: now}
		}
	}
	l.publishConverge()
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
func (l *lifecycle) publishConverge() {
	if l.opts.Board == nil {
		return
	}
	s := board.ConvergeState{Superseded: maps.Clone(l.superseded), ModulesError: l.modulesError}
	if l.group != nil {
		s.Waits = l.group.waits()
	}
	l.opts.Board.SetConverge(s)
}
