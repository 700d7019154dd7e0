package queue

import (
	"log/slog"

	"github.com/addon-actors/addon-operator/actors/step"
	"github.com/addon-actors/addon-operator/messages"
)

// logReplaced logs the module runs that replaced a retry.
func (c *Core) logReplaced() []Effect {
	var out []Effect
	for _, t := range c.queues.TakeReplaced() {
		out = append(out, Log(step.At(slog.LevelWarn, "module run replaces the retry of a failing run and starts now",
			"task", describe(t), "reason", t.Reason, "replaces", t.Supersedes)))
	}
	return out
}

// logMerged logs the queues whose waiting run passed the context bound
// (once per run): its event contexts now merge by object.
func (c *Core) logMerged() []Effect {
	var out []Effect
	for _, name := range c.queues.TakeMergedByObject() {
		out = append(out, Log(step.At(slog.LevelWarn, "a waiting hook run's binding contexts passed the bound: later events "+
			"merge by object, each object's latest event replacing its earlier ones; none is dropped", "queue", name,
			"bound", c.queues.bound.max)))
	}
	return out
}

// supersede lets a reload waiting in main drop a failing converge: the
// dropped tasks are counted and logged, the operator is told (before it
// is asked to run the reload), and main runs the reload.
func (c *Core) supersede() []Effect {
	s, ok := c.queues.Supersede()
	if !ok {
		return nil
	}
	out := c.publish()
	out = append(out, Log(step.At(slog.LevelWarn, "reload supersedes a failing converge; its tasks are dropped",
		"reason", s.By.Reason, "dropped", len(s.Dropped), "supersedes", s.By.Supersedes)))
	for _, t := range s.Dropped {
		out = append(out, Log(step.At(slog.LevelInfo, "task dropped: superseded by a reload", "task", describe(t),
			"reload", s.By.Reason)), TellDropped{Task: t, Err: "superseded by " + s.By.Reason})
	}
	out = append(out, TellSuperseded{Msg: messages.ConvergeSuperseded{By: s.By, Dropped: s.Dropped, Group: s.Group}})
	return append(out, c.kick(messages.MainQueue)...)
}
