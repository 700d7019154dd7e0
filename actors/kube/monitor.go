package kube

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/cache"

	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/hook/bctx"
	"github.com/addon-actors/addon-operator/hook/bindings"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/supervision/kubewatch"
)

// item is one object of a binding's snapshot.
type item struct {
	object json.RawMessage // nil unless keepFullObjectsInMemory
	filter json.RawMessage // nil without a jqFilter
}

// monitor is one binding's watch and snapshot.
type monitor struct {
	id     int
	owner  string
	module string
	hook   messages.HookMonitor
	kind   string
	// sel is the binding's selection, compiled when the watch started.
	sel compiled
	// snapshot by namespace/name; synced once the informers listed. An
	// object changed in place keeps its item (put), so order stays valid.
	snapshot map[string]*item
	// order is the snapshot's items by key; nil when a key came or went
	// since (put, drop).
	order    []*item
	synced   int // informers synced
	informer int // informers started
	stop     context.CancelFunc
	// What starting more informers needs (namespace label selectors).
	ctx      context.Context
	client   clients
	gvr      schemaGVR
	post     func(any)
	nsStops  map[string]context.CancelFunc
	nsSynced map[string]bool
	// initialDone: the first listing of every informer is complete.
	initialDone bool
	// syncRun is the Synchronization run kept for an owner that runs
	// them itself, until it gets them.
	syncRun *messages.SyncRun
	// syncSent: its Synchronization run went to its owner as a HookEvent.
	syncSent bool
	// failures counts the failed lists and watches of each source.
	failures map[string]int
	// watch is what every informer's kubewatch.Guard shares.
	watch kubewatch.Options
}

// objectEvent and informerSynced carry the informers' callbacks into the
// actor's mailbox.
type objectEvent struct {
	monitor int
	source  string // the informer: its namespace, "" for all
	event   string // Added, Modified, Deleted
	obj     *unstructured.Unstructured
}

// informerSynced reports an informer's first sync; source is its
// namespace ("" for all), or namespacesSource for the namespace informer.
type informerSynced struct {
	monitor int
	source  string
}

const namespacesSource = "#namespaces"

// start runs one informer per namespace of the binding; the callbacks post
// to post. A namespace label selector runs a namespace informer first,
// whose adds and deletes start and stop the per-namespace informers.
func (m *monitor) start(client clients, gvr schemaGVR, post func(any)) {
	ctx, cancel := context.WithCancel(context.Background())
	m.ctx, m.stop, m.client, m.gvr, m.post = ctx, cancel, client, gvr, post
	m.nsStops, m.nsSynced, m.failures = map[string]context.CancelFunc{}, map[string]bool{}, map[string]int{}
	sel := m.hook.Binding.Namespace
	if m.sel.namespaceLabels != "" && gvr.namespaced {
		m.watchNamespaces(m.sel.namespaceLabels)
		return
	}
	namespaces := sel.Names
	if len(namespaces) == 0 || !gvr.namespaced {
		namespaces = []string{metav1.NamespaceAll}
	}
	for _, ns := range namespaces {
		m.startNamespace(ns)
	}
}

// startNamespace runs the object informer of one namespace; false when it
// runs already.
func (m *monitor) startNamespace(ns string) bool {
	if _, ok := m.nsStops[ns]; ok {
		return false
	}
	ctx, cancel := context.WithCancel(m.ctx)
	m.nsStops[ns] = cancel
	m.informer++
	var transform cache.TransformFunc
	if m.slim() {
		transform = m.slimObject
	}
	guard := m.guard(ctx, m.gvr.gvr.GroupResource().String(), ns, ns)
	m.run(ctx, ns, newInformer(m.client, m.gvr.gvr, ns, m.tweak, guard, transform, m.handlers(ns, m.post)))
	return true
}

// slim tells whether only the filter result and the identity of objects
// are kept (keepFullObjectsInMemory: false with a jqFilter): the informer's
// cache then holds slim objects, which is what keeps memory flat.
func (m *monitor) slim() bool {
	b := m.hook.Binding
	return !b.KeepFullObjectsInMemory && m.sel.jq != nil
}

// filterField and filterErrField carry the filter result (JSON text) or
// its error on a slim object; strings keep the object JSON-compatible.
const (
	filterField    = "__addonOperatorFilterResult"
	filterErrField = "__addonOperatorFilterError"
)

// slimObject replaces an object by its identity and its filter result,
// computed here, in the informer, once per change.
func (m *monitor) slimObject(obj any) (any, error) {
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return obj, nil
	}
	if _, done := u.Object[filterField]; done || u.Object[filterErrField] != nil {
		return u, nil // client-go may transform an object twice
	}
	slim := &unstructured.Unstructured{Object: map[string]any{"apiVersion": u.GetAPIVersion(), "kind": u.GetKind()}}
	slim.SetName(u.GetName())
	slim.SetNamespace(u.GetNamespace())
	slim.SetResourceVersion(u.GetResourceVersion())
	slim.SetUID(u.GetUID())
	res, err := runJq(m.sel.jq, u.Object)
	if err != nil {
		slim.Object[filterErrField] = err.Error()
	} else {
		slim.Object[filterField] = string(res)
	}
	return slim, nil
}

// stopNamespace stops a namespace's informer and forgets its objects;
// false when it was not running.
func (m *monitor) stopNamespace(ns string) bool {
	stop, ok := m.nsStops[ns]
	if ok {
		stop()
		delete(m.nsStops, ns)
		m.informer--
		if m.nsSynced[ns] {
			m.synced--
		}
		delete(m.nsSynced, ns)
	}
	for k := range m.snapshot {
		if strings.HasPrefix(k, ns+"/") {
			m.drop(k)
		}
	}
	return ok
}

// watchNamespaces follows the namespaces the label selector picks.
func (m *monitor) watchNamespaces(selector string) {
	m.informer++
	nsGVR := schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}
	tweak := func(o *metav1.ListOptions) { o.LabelSelector = selector }
	guard := m.guard(m.ctx, "namespaces", "", namespacesSource)
	m.run(m.ctx, namespacesSource, newInformer(m.client, nsGVR, metav1.NamespaceAll, tweak, guard, nil, cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) { m.post(namespaceEvent{monitor: m.id, name: nameOf(obj), added: true}) },
		DeleteFunc: func(obj any) {
			if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
				obj = d.Obj
			}
			m.post(namespaceEvent{monitor: m.id, name: nameOf(obj)})
		},
	}))
}

// namespaceEvent tells that a namespace started or stopped matching.
type namespaceEvent struct {
	monitor int
	name    string
	added   bool
}

func nameOf(obj any) string {
	if u, ok := obj.(*unstructured.Unstructured); ok {
		return u.GetName()
	}
	return ""
}

// run starts an informer and reports its first sync.
func (m *monitor) run(ctx context.Context, source string, inf *kubewatch.Informer) {
	go inf.Run(ctx)
	go func() {
		select {
		case <-inf.Synced():
			if ctx.Err() == nil {
				m.post(informerSynced{monitor: m.id, source: source})
			}
		case <-ctx.Done():
		}
	}()
}

// markSynced records an informer's first sync; false for one stopped
// meanwhile.
func (m *monitor) markSynced(source string) bool {
	if _, running := m.nsStops[source]; !running && source != namespacesSource {
		return false
	}
	if !m.nsSynced[source] {
		m.nsSynced[source] = true
		m.synced++
	}
	return true
}

func (m *monitor) tweak(o *metav1.ListOptions) {
	b := m.hook.Binding
	o.LabelSelector = m.sel.labels
	sel := b.FieldSelector
	if len(b.NameSelector) == 1 {
		byName := fields.OneTermEqualSelector("metadata.name", b.NameSelector[0]).String()
		sel = joinSelectors(sel, byName)
	}
	o.FieldSelector = sel
}

func joinSelectors(a, b string) string {
	if a == "" {
		return b
	}
	return a + "," + b
}

func (m *monitor) handlers(source string, post func(any)) cache.ResourceEventHandlerFuncs {
	send := func(event string, obj any) {
		if u, ok := obj.(*unstructured.Unstructured); ok && m.wanted(u) {
			post(objectEvent{monitor: m.id, source: source, event: event, obj: u})
		}
	}
	return cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) { send(string(bindings.Added), obj) },
		UpdateFunc: func(old, obj any) {
			if o, n := old.(*unstructured.Unstructured), obj.(*unstructured.Unstructured); o.GetResourceVersion() != n.GetResourceVersion() {
				send(string(bindings.Modified), obj)
			}
		},
		DeleteFunc: func(obj any) {
			if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
				obj = d.Obj
			}
			send(string(bindings.Deleted), obj)
		},
	}
}

// wanted applies the part of the selection the apiserver cannot: several
// names.
func (m *monitor) wanted(u *unstructured.Unstructured) bool {
	names := m.hook.Binding.NameSelector
	return len(names) <= 1 || slices.Contains(names, u.GetName())
}

// itemOf computes what the snapshot keeps of an object.
func (m *monitor) itemOf(u *unstructured.Unstructured) (item, error) {
	var it item
	if msg, ok := u.Object[filterErrField].(string); ok {
		return item{}, fmt.Errorf("jqFilter %q on %s/%s: %s", m.hook.Binding.JqFilter, u.GetNamespace(), u.GetName(), msg)
	}
	if pre, ok := u.Object[filterField].(string); ok {
		return item{filter: json.RawMessage(pre)}, nil
	}
	if m.sel.jq != nil {
		res, err := runJq(m.sel.jq, u.Object)
		if err != nil {
			return item{}, fmt.Errorf("jqFilter %q on %s/%s: %w", m.hook.Binding.JqFilter, u.GetNamespace(), u.GetName(), err)
		}
		it.filter = res
	}
	// keepFullObjectsInMemory: false leaves the object out of every
	// context, even without a jqFilter (as shell-operator does).
	if m.hook.Binding.KeepFullObjectsInMemory {
		obj, err := json.Marshal(u.Object)
		if err != nil {
			return item{}, err
		}
		it.object = obj
	}
	return it, nil
}

// get returns a copy of the snapshot's object k.
func (m *monitor) get(k string) (item, bool) {
	if p, ok := m.snapshot[k]; ok {
		return *p, true
	}
	return item{}, false
}

// put sets an object of the snapshot: a changed object is changed in place
// and keeps the sorted order, a new key makes it stale.
func (m *monitor) put(k string, it item) {
	if p, ok := m.snapshot[k]; ok {
		*p = it
		return
	}
	m.snapshot[k] = &it
	m.order = nil
}

// drop removes an object from the snapshot.
func (m *monitor) drop(k string) {
	delete(m.snapshot, k)
	m.order = nil
}

// objects lists the snapshot by namespace, then name, for binding
// contexts, in a new slice. The order is kept between calls until a key
// comes or goes: a storm of changes to the same objects, each of whose
// runs asks for the snapshot, sorts it once and then only copies its items
// (a map lookup per object and run was a tenth of a storm's CPU).
func (m *monitor) objects() []bctx.ObjectAndFilterResult {
	if m.order == nil {
		keys := slices.SortedFunc(maps.Keys(m.snapshot), board.CompareKeys)
		m.order = make([]*item, len(keys))
		for i, k := range keys {
			m.order[i] = m.snapshot[k]
		}
	}
	out := make([]bctx.ObjectAndFilterResult, len(m.order))
	for i, it := range m.order {
		out[i] = bctx.ObjectAndFilterResult{Object: it.object, FilterResult: it.filter}
	}
	return out
}
