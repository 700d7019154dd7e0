package kube

import (
	"slices"
	"sort"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/hook/bctx"
	"github.com/addon-actors/addon-operator/hook/bindings"
	"github.com/addon-actors/addon-operator/messages"
)

func key(namespace, name string) string { return namespace + "/" + name }

// handleObject updates the snapshot and, once synced, sends the owner a
// run for the events the binding wants.
func (a *Actor) handleObject(ctx actor.Context, ev objectEvent) {
	m, ok := a.monitors[ev.monitor]
	if !ok {
		return // stopped meanwhile
	}
	if _, running := m.nsStops[ev.source]; !running {
		return // its namespace was dropped meanwhile: the object must not come back
	}
	k := key(ev.obj.GetNamespace(), ev.obj.GetName())
	before, existed := m.get(k)
	var it item
	if ev.event == string(bindings.Deleted) {
		if !existed {
			// Its jqFilter failed on every version of it: the hook never
			// saw it, and has no filter result to be told about.
			a.opts.Log.Debug("deleted object the hook never saw", "hook", m.hook.Hook, "binding", m.hook.Binding.Name, "object", k)
			return
		}
		m.drop(k)
		it = before
	} else {
		var err error
		// On an error the snapshot keeps the object as last read: a
		// transient bad value must not look like a deletion.
		if it, err = m.itemOf(ev.obj); err != nil {
			a.opts.Log.Error("jqFilter failed; event skipped", "owner", m.owner, "hook", m.hook.Hook, "binding", m.hook.Binding.Name,
				"event", ev.event, "object", k, "err", err)
			a.countError(m.owner, m.hook.Hook, m.hook.Binding.Name)
			return
		}
		m.put(k, it)
	}
	// Until the Synchronization is handed out, events only build the snapshot
	// it carries: a hook hears of no event before it. Afterwards every
	// event runs the hook, also the first listing of a namespace picked
	// later: its objects are new to the hook.
	if !m.initialDone || !a.wants(m, ev.event) {
		a.opts.Log.Debug("event without a run", "hook", m.hook.Hook, "binding", m.hook.Binding.Name, "event", ev.event,
			"object", k, "synchronized", m.initialDone)
		return
	}
	if ev.event == string(bindings.Modified) && existed && m.sel.jq != nil && string(before.filter) == string(it.filter) {
		return // the filter result did not change
	}
	a.sendEvent(ctx, m, a.eventContext(m, ev, it), false)
}

func (a *Actor) wants(m *monitor, event string) bool {
	return slices.Contains(m.hook.Binding.ExecuteHookOnEvent, bindings.WatchEvent(event))
}

// handleSynced hands out the Synchronization run once every informer of
// the binding has listed.
func (a *Actor) handleSynced(ctx actor.Context, s informerSynced) {
	m, ok := a.monitors[s.monitor]
	if !ok {
		return
	}
	if n := m.failures[s.source]; n > 0 && !m.nsSynced[s.source] {
		a.opts.Log.Info("listed after failures", "owner", m.owner, "hook", m.hook.Hook, "binding", m.hook.Binding.Name,
			"namespace", s.source, "failures", n)
	}
	if !m.markSynced(s.source) || m.initialDone || m.synced < m.informer {
		return // a namespace picked later: its objects ran the hook as Added
	}
	m.initialDone = true
	if m.hook.Binding.ExecuteHookOnSynchronization {
		a.handOutSync(ctx, m)
	}
	a.reportIfSynced(ctx, m.owner)
}

// handOutSync keeps the binding's Synchronization run for its owner's
// KubeSyncRuns, or sends it to the owner as a HookEvent to queue (an owner
// that does not run them itself, and named queues: see WatchKube.SyncTo
// and WaitNamed). A grouped binding's run is one per
// hook and group: its Group context stands for every binding of the group.
func (a *Actor) handOutSync(ctx actor.Context, m *monitor) {
	b := m.hook.Binding
	to := a.syncTo[m.owner]
	named := bindings.QueueName(b.Queue) != messages.MainQueue
	if to == nil || named && (!b.WaitForSynchronization || a.waitNamed[m.owner]) {
		if a.groupSyncSent(m) {
			return
		}
		m.syncSent = true
		if to != nil && b.WaitForSynchronization {
			a.waited[m.owner] = append(a.waited[m.owner], messages.SyncRef{Hook: m.hook.Hook, Binding: b.Name})
		}
		a.sendEvent(ctx, m, a.syncContext(m), true)
		return
	}
	m.syncRun = &messages.SyncRun{Hook: m.hook.Hook, Binding: b.Name, Group: b.Group, Context: a.syncContext(m),
		AllowFailure: b.AllowFailure}
}

// groupSyncSent tells whether another binding of m's group in the same
// hook has sent its Synchronization: its Group context stands for m's.
func (a *Actor) groupSyncSent(m *monitor) bool {
	if m.hook.Binding.Group == "" {
		return false
	}
	for _, id := range a.byOwner[m.owner] {
		o := a.monitors[id]
		if o != nil && o != m && o.syncSent && o.hook.Hook == m.hook.Hook && o.hook.Binding.Group == m.hook.Binding.Group {
			return true
		}
	}
	return false
}

// ownerSyncRuns are the Synchronization runs handed to an owner: in hook
// order, then in the order of the hook's bindings (monitors start in that
// order), one per hook and group.
func (a *Actor) ownerSyncRuns(owner string) []messages.SyncRun {
	var runs []messages.SyncRun
	for _, id := range a.byOwner[owner] {
		m := a.monitors[id]
		if m == nil || m.syncRun == nil || m.syncRun.Group != "" && slices.ContainsFunc(runs, func(r messages.SyncRun) bool {
			return r.Hook == m.syncRun.Hook && r.Group == m.syncRun.Group
		}) {
			continue
		}
		runs = append(runs, *m.syncRun)
		m.syncRun = nil
	}
	sort.SliceStable(runs, func(i, j int) bool { return runs[i].Hook < runs[j].Hook })
	return runs
}

// eventContext is the binding context of one event, in the hook's format.
// Its snapshots are a placeholder: the owner fills them in just before the
// hook runs (runs wait in queues and merge).
func (a *Actor) eventContext(m *monitor, ev objectEvent, it item) []byte {
	b := m.hook.Binding
	if m.hook.Version == bindings.V0 {
		data, _ := bctx.MarshalV0([]bctx.V0Context{bctx.V0Event(b.Name, ev.event, ev.obj.GetNamespace(), m.kind, ev.obj.GetName())})
		return data
	}
	if b.Group != "" {
		return bctx.Marshal([]bctx.Context{bctx.GroupContext(b.Name, b.Group, nil)})
	}
	item := bctx.ObjectAndFilterResult{Object: it.object, FilterResult: it.filter}
	return bctx.Marshal([]bctx.Context{bctx.WatchEventContext(b.Name, ev.event, item, placeholder(b))})
}

func (a *Actor) syncContext(m *monitor) []byte {
	b := m.hook.Binding
	if m.hook.Version == bindings.V0 {
		data, _ := bctx.MarshalV0([]bctx.V0Context{bctx.V0Binding(b.Name)})
		return data
	}
	if b.Group != "" {
		return bctx.Marshal([]bctx.Context{bctx.GroupContext(b.Name, b.Group, nil)})
	}
	return bctx.Marshal([]bctx.Context{bctx.Sync(b.Name, m.objects(), placeholder(b))})
}

// placeholder marks a context that carries snapshots (includeSnapshotsFrom).
func placeholder(b bindings.KubernetesBinding) bctx.Snapshots {
	if len(b.IncludeSnapshotsFrom) == 0 {
		return nil
	}
	return bctx.Snapshots{}
}

// sendEvent hands the hook run of an event or a Synchronization to the
// hook's owner, which queues it (waiting event runs of one hook compact).
func (a *Actor) sendEvent(ctx actor.Context, m *monitor, context []byte, sync bool) {
	b := m.hook.Binding
	source := "kubernetes " + m.kind
	if sync {
		source = "Synchronization of " + m.kind
	}
	ctx.Send(a.opts.Owner(m.owner), messages.HookEvent{Owner: m.owner, Hook: m.hook.Hook, Binding: b.Name,
		Queue: b.Queue, AllowFailure: b.AllowFailure, Source: source, Context: context, Sync: sync})
}
