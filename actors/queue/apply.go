package queue

import (
	"fmt"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/actors/step"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/supervision"
)

// step feeds the core one event and carries out its effects, in order.
func (a *Actor) step(ctx actor.Context, ev Event) {
	for _, e := range a.core.Step(ev, Env{Now: a.opts.Clock.Now()}) {
		a.apply(ctx, e)
	}
}

// apply carries out one effect of the core; TestApplyCoversEveryEffect
// proves it has a case for each.
func (a *Actor) apply(ctx actor.Context, e Effect) {
	switch e := e.(type) {
	case Run:
		owner := a.opts.Resolve(e.Task.Owner)
		ctx.Watch(owner)
		ctx.Request(owner, messages.RunTask{Task: e.Task})
	case Unwatch:
		ctx.Unwatch(a.opts.Resolve(e.Owner))
	case ArmRetry:
		supervision.Deliver(a.opts.Clock, ctx.ActorSystem().Root, ctx.Self(), e.Due, e.Delay)
	case Publish:
		if a.opts.Publish != nil {
			a.opts.Publish(e.Snapshot)
		}
	case Log:
		step.Log(e).Write(a.opts.Log)
	case TellDropped:
		if a.opts.Dropped != nil {
			a.opts.Dropped(e.Task, e.Err)
		}
	case ReportGroup:
		a.tellOperator(ctx, e.Report)
	case TellSuperseded:
		a.tellOperator(ctx, e.Msg)
	default:
		panic(fmt.Sprintf("queue: effect %T has no case in apply", e))
	}
}

// tellOperator sends msg to the operator, when there is one.
func (a *Actor) tellOperator(ctx actor.Context, msg any) {
	if operator := a.opts.Resolve(messages.OwnerOperator); operator != nil {
		ctx.Send(operator, msg)
	}
}
