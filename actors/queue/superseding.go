package queue

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/messages"
)

// logReplaced logs the module runs that replaced a retry.
func (a *Actor) logReplaced() {
	for _, t := range a.queues.TakeReplaced() {
		a.opts.Log.Warn("module run replaces the retry of a failing run and starts now", "task", describe(t),
			"reason", t.Reason, "replaces", t.Supersedes)
	}
}

// logMerged logs the queues whose waiting run passed the context bound
// (once per run): its event contexts now merge by object.
func (a *Actor) logMerged() {
	for _, name := range a.queues.TakeMergedByObject() {
		a.opts.Log.Warn("a waiting hook run's binding contexts passed the bound: later events merge by object, "+
			"each object's latest event replacing its earlier ones; none is dropped", "queue", name,
			"bound", a.queues.bound.max)
	}
}

// supersede lets a reload waiting in main drop a failing converge: the
// dropped tasks are counted and logged, the operator is told (before it
// is asked to run the reload), and main runs the reload.
func (a *Actor) supersede(ctx actor.Context) {
	s, ok := a.queues.Supersede()
	if !ok {
		return
	}
	a.publish()
	a.opts.Log.Warn("reload supersedes a failing converge; its tasks are dropped", "reason", s.By.Reason,
		"dropped", len(s.Dropped), "supersedes", s.By.Supersedes)
	for _, t := range s.Dropped {
		a.opts.Log.Info("task dropped: superseded by a reload", "task", describe(t), "reload", s.By.Reason)
		a.dropped(t, "superseded by "+s.By.Reason)
	}
	if operator := a.opts.Resolve(messages.OwnerOperator); operator != nil {
		ctx.Send(operator, messages.ConvergeSuperseded{By: s.By, Dropped: s.Dropped, Group: s.Group})
	}
	a.kick(ctx, messages.MainQueue)
}
