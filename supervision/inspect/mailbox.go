package inspect

import (
	"github.com/asynkron/protoactor-go/actor"
)

// mailbox wraps a real mailbox: the invoker it hands to the real mailbox
// records each message around the actor's handling of it. Posting is left
// alone: all bookkeeping happens on the actor's own goroutine, so senders
// on other cores pay nothing and share no cache line with it.
type mailbox struct {
	actor.Mailbox
	rec *record
	reg *Registry
}

// RegisterHandlers is called once the actor's PID exists, which is when the
// record can be named and listed.
func (m *mailbox) RegisterHandlers(invoker actor.MessageInvoker, dispatcher actor.Dispatcher) {
	inv := &recordingInvoker{MessageInvoker: invoker, rec: m.rec, reg: m.reg}
	if ctx, ok := invoker.(actor.Context); ok {
		m.rec.path = ctx.Self().Id
		if parent := ctx.Parent(); parent != nil {
			m.rec.parent = parent.Id
		}
		inv.system = ctx.ActorSystem()
	}
	m.rec.length = m.Mailbox.UserMessageCount
	m.rec.alive = inv.alive
	m.reg.add(m.rec)
	m.Mailbox.RegisterHandlers(inv, dispatcher)
}

type recordingInvoker struct {
	actor.MessageInvoker
	rec    *record
	reg    *Registry
	system *actor.ActorSystem
}

// InvokeUserMessage records the mailbox length the message was taken from:
// between two takes the length only grows, so the largest length seen at a
// take is the high-water mark (Snapshot adds the length of a mailbox that
// has not been taken from since).
//
// The clock is read once per message, at its end (a read costs 40 ns on a
// VM's kvm-clock): a message that was already waiting when the previous one
// ended starts when that one ended; otherwise the clock is read at its start.
func (i *recordingInvoker) InvokeUserMessage(message interface{}) {
	waiting := i.rec.length()
	i.rec.observeLength(waiting + 1)
	msg := actor.UnwrapEnvelopeMessage(message)
	start, ok := i.rec.startedWhenLastEnded()
	if !ok {
		start = i.reg.elapsed()
	}
	i.rec.begin(msg, start)
	// No defer: after a panic the mailbox calls EscalateFailure, which ends
	// the message there.
	i.MessageInvoker.InvokeUserMessage(message)
	end := i.reg.elapsed()
	i.rec.end(msg, end)
	i.rec.nextMayStartAt(end, i.rec.length() > 0)
}

func (i *recordingInvoker) InvokeSystemMessage(message interface{}) {
	if _, ok := message.(*actor.Restart); ok {
		i.rec.restarts.Add(1)
	}
	i.MessageInvoker.InvokeSystemMessage(message)
	switch message.(type) {
	case *actor.Stop, *actor.Terminated:
		i.forgetIfStopped()
	}
}

// forgetIfStopped drops the record once the actor has left the process
// registry, which protoactor does when it finalizes a stop.
func (i *recordingInvoker) forgetIfStopped() {
	if !i.alive() {
		i.reg.remove(i.rec)
	}
}

func (i *recordingInvoker) alive() bool {
	if i.system == nil {
		return true
	}
	_, ok := i.system.ProcessRegistry.GetLocal(i.rec.path)
	return ok
}

func (i *recordingInvoker) EscalateFailure(reason interface{}, message interface{}) {
	i.rec.failed(actor.UnwrapEnvelopeMessage(message), reason, i.reg.elapsed())
	i.MessageInvoker.EscalateFailure(reason, message)
}
