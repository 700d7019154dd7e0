package config

import (
	"maps"
	"slices"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/moduleconfig"
	"github.com/addon-actors/addon-operator/supervision"
)

// statusDelay is how long a ModuleConfig's status waits before it is
// written: the PATCH to the apiserver comes after the module's run has
// started, not beside its hook's start on the same cores (issue 44's
// latency figure: with the write at layering a ModuleConfig change took
// ~2.5 ms longer than a ConfigMap one to reach the hook).
const statusDelay = 100 * time.Millisecond

// statusFlush tells the config actor that statusDelay has passed.
type statusFlush struct{}

// pendingStatuses are the statuses waiting for statusDelay, by object:
// a newer status of an object replaces the one waiting (only the latest
// is written), none is dropped but an object's whose deletion was seen.
// It is pure; the actor arms the timer when put says so.
type pendingStatuses struct {
	byName map[string]moduleconfig.Status
	armed  bool
}

// put keeps st for name; arm is true when the timer is to be started.
func (p *pendingStatuses) put(name string, st moduleconfig.Status) (arm bool) {
	if p.byName == nil {
		p.byName = map[string]moduleconfig.Status{}
	}
	p.byName[name] = st
	arm, p.armed = !p.armed, true
	return arm
}

// drop forgets the status of a deleted object.
func (p *pendingStatuses) drop(name string) { delete(p.byName, name) }

// take returns the statuses to write, by name in order, and empties p.
func (p *pendingStatuses) take() []statusWrite {
	out := make([]statusWrite, 0, len(p.byName))
	for _, name := range slices.Sorted(maps.Keys(p.byName)) {
		out = append(out, statusWrite{Name: name, Status: p.byName[name]})
	}
	p.byName, p.armed = nil, false
	return out
}

// deferStatus queues st for the writer after statusDelay.
func (a *Actor) deferStatus(ctx actor.Context, name string, st moduleconfig.Status) {
	if !a.objects.pending.put(name, st) {
		return
	}
	root, self := ctx.ActorSystem().Root, ctx.Self()
	a.objects.flush = a.opts.Clock.AfterFunc(statusDelay, func() { root.Send(self, statusFlush{}) })
}

// flushStatuses hands the waiting statuses to the writer.
func (a *Actor) flushStatuses(ctx actor.Context) {
	for _, w := range a.objects.pending.take() {
		ctx.Send(a.writer, w)
	}
}

// stopFlush stops the timer before the actor stops or restarts. The
// statuses still waiting are not written here, where a hung apiserver
// would hold the stop for the write's timeout per object: the next start
// (of this actor or of the next leader) begins with nothing written and
// writes every object's status at its first layering, so none is lost.
func (a *Actor) stopFlush() {
	var t supervision.Timer
	t, a.objects.flush = a.objects.flush, nil
	if t != nil {
		t.Stop()
	}
	a.objects.pending.take()
}
