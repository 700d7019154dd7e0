package kube

import (
	"slices"

	"github.com/asynkron/protoactor-go/actor"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/addon-actors/addon-operator/hookexec/bctx"
	"github.com/addon-actors/addon-operator/hookexec/bindings"
	"github.com/addon-actors/addon-operator/messages"
)

func key(namespace, name string) string { return namespace + "/" + name }

// handleObject updates the snapshot and, once synced, queues a run for the
// events the binding wants.
func (a *Actor) handleObject(ctx actor.Context, ev objectEvent) {
	m, ok := a.monitors[ev.monitor]
	if !ok {
		return // stopped meanwhile
	}
	if _, running := m.nsStops[ev.source]; !running {
		return // its namespace was dropped meanwhile: the object must not come back
	}
	k := key(ev.obj.GetNamespace(), ev.obj.GetName())
	before, existed := m.snapshot[k]
	var it item
	if ev.event == string(bindings.Deleted) {
		if !existed {
			// Its jqFilter failed on every version of it: the hook never
			// saw it, and has no filter result to be told about.
			a.opts.Log.Debug("deleted object the hook never saw", "hook", m.hook.Hook, "binding", m.hook.Binding.Name, "object", k)
			return
		}
		delete(m.snapshot, k)
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
		m.snapshot[k] = it
	}
	// Until the Synchronization is queued, events only build the snapshot
	// it carries: a hook hears of no event before it. Afterwards every
	// event runs the hook, also the first listing of a namespace picked
	// later: its objects are new to the hook.
	if !m.initialDone || !a.wants(m, ev.event) {
		a.opts.Log.Debug("event without a run", "hook", m.hook.Hook, "binding", m.hook.Binding.Name, "event", ev.event,
			"object", k, "synchronized", m.initialDone)
		return
	}
	if ev.event == string(bindings.Modified) && existed && m.hook.Binding.Jq != nil && string(before.filter) == string(it.filter) {
		return // the filter result did not change
	}
	it.object = objectJSON(ev) // an Event context always carries its object
	a.enqueue(ctx, m, a.eventContext(m, ev, it))
}

// objectJSON is the event's object as the hook gets it (a slim object
// without the operator's own fields).
func objectJSON(ev objectEvent) []byte {
	obj := ev.obj
	if _, slim := obj.Object[filterField]; slim || obj.Object[filterErrField] != nil {
		clean := map[string]any{}
		for k, v := range obj.Object {
			if k != filterField && k != filterErrField {
				clean[k] = v
			}
		}
		obj = &unstructured.Unstructured{Object: clean}
	}
	data, _ := obj.MarshalJSON()
	return data
}

func (a *Actor) wants(m *monitor, event string) bool {
	return slices.Contains(m.hook.Binding.ExecuteHookOnEvent, bindings.WatchEvent(event))
}

// handleSynced queues the Synchronization run once every informer of the
// binding has listed.
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
		if a.syncTo[m.owner] != nil {
			a.syncRuns[m.owner] = append(a.syncRuns[m.owner],
				messages.SyncRun{Hook: m.hook.Hook, Binding: m.hook.Binding.Name, Context: a.syncContext(m)})
		} else {
			a.enqueue(ctx, m, a.syncContext(m))
		}
	}
	a.reportIfSynced(ctx, m.owner)
}

// eventContext is the binding context of one event, in the hook's format.
func (a *Actor) eventContext(m *monitor, ev objectEvent, it item) []byte {
	b := m.hook.Binding
	if m.hook.Version == bindings.V0 {
		data, _ := bctx.MarshalV0([]bctx.V0Context{bctx.V0Event(b.Name, ev.event, ev.obj.GetNamespace(), m.kind, ev.obj.GetName())})
		return data
	}
	if b.Group != "" {
		return bctx.Marshal([]bctx.Context{bctx.GroupContext(b.Group, a.snapshots(m, a.groupBindings(m)))})
	}
	item := bctx.ObjectAndFilterResult{Object: it.object, FilterResult: it.filter}
	return bctx.Marshal([]bctx.Context{bctx.WatchEventContext(b.Name, ev.event, item, a.snapshots(m, b.IncludeSnapshotsFrom))})
}

func (a *Actor) syncContext(m *monitor) []byte {
	b := m.hook.Binding
	if m.hook.Version == bindings.V0 {
		data, _ := bctx.MarshalV0([]bctx.V0Context{bctx.V0Binding(b.Name)})
		return data
	}
	if b.Group != "" {
		return bctx.Marshal([]bctx.Context{bctx.GroupContext(b.Group, a.snapshots(m, a.groupBindings(m)))})
	}
	return bctx.Marshal([]bctx.Context{bctx.Sync(b.Name, m.objects(), a.snapshots(m, b.IncludeSnapshotsFrom))})
}

// snapshots are the current objects of the named bindings of the same hook.
func (a *Actor) snapshots(m *monitor, names []string) bctx.Snapshots {
	if len(names) == 0 {
		return nil
	}
	out := bctx.Snapshots{}
	for _, id := range a.byOwner[m.owner] {
		o := a.monitors[id]
		if o != nil && o.hook.Hook == m.hook.Hook && slices.Contains(names, o.hook.Binding.Name) {
			out[o.hook.Binding.Name] = o.objects()
		}
	}
	return out
}

func (a *Actor) groupBindings(m *monitor) []string {
	var names []string
	for _, id := range a.byOwner[m.owner] {
		if o := a.monitors[id]; o != nil && o.hook.Hook == m.hook.Hook && o.hook.Binding.Group == m.hook.Binding.Group {
			names = append(names, o.hook.Binding.Name)
		}
	}
	return names
}

// enqueue queues the hook run; waiting runs of the same hook compact.
func (a *Actor) enqueue(ctx actor.Context, m *monitor, context []byte) {
	b := m.hook.Binding
	kind := messages.TaskGlobalHook
	if m.module != "" {
		kind = messages.TaskModuleHook
	}
	t := messages.Task{Queue: b.Queue, Kind: kind, Owner: m.owner, Module: m.module, Hook: m.hook.Hook,
		Binding: b.Name, AllowFailure: b.AllowFailure, Reason: "kubernetes " + m.kind, Context: context,
		MergeKey: "hook/" + m.owner + "/" + m.hook.Hook, Compact: true}
	ctx.Send(a.opts.Queue, messages.Enqueue{Tasks: []messages.Task{t}})
}
