package queue

import (
	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/eventstream"

	"github.com/addon-actors/addon-operator/supervision"
)

// eventSub forwards the guardian's restart events into the queue's mailbox.
type eventSub struct {
	stream *eventstream.EventStream
	sub    *eventstream.Subscription
}

func subscribeRestarts(ctx actor.Context) *eventSub {
	system, self := ctx.ActorSystem(), ctx.Self()
	sub := system.EventStream.Subscribe(func(evt interface{}) {
		if e, ok := evt.(supervision.ActorRestarted); ok {
			system.Root.Send(self, ownerRestarted{Owner: e.Actor})
		}
	})
	return &eventSub{stream: system.EventStream, sub: sub}
}

func (s *eventSub) close() {
	if s != nil && s.sub != nil {
		s.stream.Unsubscribe(s.sub)
		s.sub = nil
	}
}
