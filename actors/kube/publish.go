package kube

import (
	"bytes"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/hook/bctx"
)

// Every binding's snapshot is published on the board (Options.Board), for
// the debug API to read without asking the actor. Each monitor's published
// copy is a board.Objects, a persistent tree the actor changes on every
// event at O(log n), next to the monitor's own snapshot; a changed
// monitor is published once per mailbox batch: the first change sends the
// actor publishSnapshots, which it handles after the messages already in
// its mailbox.

// publishSnapshots publishes the monitors changed since the last one.
type publishSnapshots struct{}

// published is what the actor publishes of its monitors.
type published struct {
	objects map[int]board.Objects // by monitor id
	dirty   map[int]bool
	pending bool // publishSnapshots is in the mailbox
}

func newPublished() *published {
	return &published{objects: map[int]board.Objects{}, dirty: map[int]bool{}}
}

// handleObjectPublished handles an object event and keeps its binding's
// published copy in line.
func (a *Actor) handleObjectPublished(ctx actor.Context, ev objectEvent) {
	a.handleObject(ctx, ev)
	a.trackObject(ctx, ev)
}

// handleNamespacePublished handles a namespace picked or dropped; the
// objects of a dropped one leave the published copy too.
func (a *Actor) handleNamespacePublished(ctx actor.Context, ev namespaceEvent) {
	a.handleNamespace(ev)
	if !ev.added {
		a.retrack(ctx, ev.monitor)
	}
}

// trackObject brings the published copy of a monitor's object in line
// with its snapshot after an object event.
func (a *Actor) trackObject(ctx actor.Context, ev objectEvent) {
	m, ok := a.monitors[ev.monitor]
	if !ok || a.opts.Board == nil {
		return
	}
	k := key(ev.obj.GetNamespace(), ev.obj.GetName())
	now, inSnapshot := m.get(k)
	objs := a.published.objects[m.id]
	was, inPublished := objs.Get(k)
	switch {
	case inSnapshot && (!inPublished || !bytes.Equal(was.Object, now.object) || !bytes.Equal(was.FilterResult, now.filter)):
		a.published.objects[m.id] = objs.With(k, bctxItem(now))
	case !inSnapshot && inPublished:
		a.published.objects[m.id] = objs.Without(k)
	default:
		return
	}
	a.markChanged(ctx, m.id)
}

// retrack builds a monitor's published copy again from its snapshot
// (after a namespace dropped its objects, or when it starts).
func (a *Actor) retrack(ctx actor.Context, id int) {
	m, ok := a.monitors[id]
	if !ok || a.opts.Board == nil {
		return
	}
	var objs board.Objects
	for k, it := range m.snapshot {
		objs = objs.With(k, bctxItem(*it))
	}
	a.published.objects[id] = objs
	a.markChanged(ctx, id)
}

// markChanged has a monitor published with the next publishSnapshots.
func (a *Actor) markChanged(ctx actor.Context, id int) {
	a.published.dirty[id] = true
	if !a.published.pending {
		a.published.pending = true
		ctx.Send(ctx.Self(), publishSnapshots{})
	}
}

// handlePublish publishes the monitors changed since the last time.
func (a *Actor) handlePublish() {
	a.published.pending = false
	for id := range a.published.dirty {
		if m, ok := a.monitors[id]; ok {
			a.opts.Board.SetSnapshot(m.owner, m.hook.Hook, m.hook.Binding.Name, a.published.objects[id])
		}
	}
	clear(a.published.dirty)
}

// unpublish forgets the published copies of an owner's monitors, on the
// board too.
func (a *Actor) unpublish(owner string) {
	if a.opts.Board == nil {
		return
	}
	for _, id := range a.byOwner[owner] {
		delete(a.published.objects, id)
		delete(a.published.dirty, id)
	}
	a.opts.Board.DropSnapshots(owner)
}

// bctxItem is a snapshot item as binding contexts carry it.
func bctxItem(it item) bctx.ObjectAndFilterResult {
	return bctx.ObjectAndFilterResult{Object: it.object, FilterResult: it.filter}
}
