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
