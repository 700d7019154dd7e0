package actortest

import (
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/actor"
)

// probeBuffer is how many unread messages a probe holds before its actor
// blocks.
const probeBuffer = 4096

// Received is one message that reached a probe, with its sender.
type Received struct {
	Message any
	Sender  *actor.PID
}

// Probe is an actor that records what it receives, for a test to assert.
type Probe struct {
	PID *actor.PID
	kit *Kit
	in  chan Received
}

// NewProbe spawns a probe.
func (k *Kit) NewProbe() *Probe {
	k.t.Helper()
	p := &Probe{kit: k, in: make(chan Received, probeBuffer)}
	p.PID = k.SpawnProps(actor.PropsFromFunc(p.receive))
	return p
}

func (p *Probe) receive(ctx actor.Context) {
	switch ctx.Message().(type) {
	case *actor.Started, *actor.Stopping, *actor.Stopped, *actor.Restarting:
		return
	}
	p.in <- Received{Message: ctx.Message(), Sender: ctx.Sender()}
}

// Send injects msg into pid with the probe as its sender, so that replies
// (ctx.Respond, or a send to ctx.Sender()) come to the probe.
func (p *Probe) Send(pid *actor.PID, msg any) {
	p.kit.Root.RequestWithCustomSender(pid, msg, p.PID)
}

// Receive returns the next message, failing the test after timeout.
func (p *Probe) Receive(timeout time.Duration) Received {
	p.kit.t.Helper()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case r := <-p.in:
		return r
	case <-timer.C:
		p.kit.t.Fatalf("probe %s: no message within %s", p.PID.Id, timeout)
		return Received{}
	}
}

// Expect returns the probe's next message as a T, failing the test when none
// arrives within timeout or the next one is of another type.
func Expect[T any](p *Probe, timeout time.Duration) T {
	p.kit.t.Helper()
	r := p.Receive(timeout)
	msg, ok := r.Message.(T)
	if !ok {
		var want T
		p.kit.t.Fatalf("probe %s: got %T %s, want %T", p.PID.Id, r.Message, describe(r.Message), want)
	}
	return msg
}

// ExpectNoMessage fails the test if a message arrives within d.
func (p *Probe) ExpectNoMessage(d time.Duration) {
	p.kit.t.Helper()
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case r := <-p.in:
		p.kit.t.Fatalf("probe %s: unexpected %T %s", p.PID.Id, r.Message, describe(r.Message))
	case <-timer.C:
	}
}

func describe(msg any) string {
	s := fmt.Sprintf("%+v", msg)
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}

// EveryOwner resolves every owner name to pid, so that one actor (a probe,
// or a test's stand-in) plays all the owners (global, module/NAME) an event
// source sends its HookEvents to.
func EveryOwner(pid *actor.PID) func(string) *actor.PID {
	return func(string) *actor.PID { return pid }
}
