package kube

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/itchyny/gojq"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/tools/cache"

	"github.com/addon-actors/addon-operator/hookexec/bctx"
	"github.com/addon-actors/addon-operator/hookexec/bindings"
	"github.com/addon-actors/addon-operator/messages"
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
	// snapshot by namespace/name; synced once the informers listed.
	snapshot map[string]item
	synced   int // informers synced
	informer int // informers started
	stop     context.CancelFunc
}

// objectEvent and informerSynced carry the informers' callbacks into the
// actor's mailbox.
type objectEvent struct {
	monitor int
	event   string // Added, Modified, Deleted
	obj     *unstructured.Unstructured
}

type informerSynced struct{ monitor int }

// start runs one informer per namespace of the binding; the callbacks post
// to post.
func (m *monitor) start(client dynamic.Interface, gvr schemaGVR, post func(any)) {
	ctx, cancel := context.WithCancel(context.Background())
	m.stop = cancel
	namespaces := m.hook.Binding.Namespace.Names
	if len(namespaces) == 0 || !gvr.namespaced {
		namespaces = []string{metav1.NamespaceAll}
	}
	m.informer = len(namespaces)
	for _, ns := range namespaces {
		inf := dynamicinformer.NewFilteredDynamicInformer(client, gvr.gvr, ns, 0, cache.Indexers{}, m.tweak)
		reg, _ := inf.Informer().AddEventHandler(m.handlers(post))
		go inf.Informer().Run(ctx.Done())
		go func() {
			if cache.WaitForCacheSync(ctx.Done(), reg.HasSynced) {
				post(informerSynced{monitor: m.id})
			}
		}()
	}
}

func (m *monitor) tweak(o *metav1.ListOptions) {
	b := m.hook.Binding
	if b.LabelSelector != nil {
		o.LabelSelector = b.LabelSelector.String()
	}
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

func (m *monitor) handlers(post func(any)) cache.ResourceEventHandlerFuncs {
	send := func(event string, obj any) {
		if u, ok := obj.(*unstructured.Unstructured); ok && m.wanted(u) {
			post(objectEvent{monitor: m.id, event: event, obj: u})
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
	if m.hook.Binding.Jq != nil {
		res, err := runJq(m.hook.Binding.Jq, u.Object)
		if err != nil {
			return item{}, fmt.Errorf("jqFilter %q on %s/%s: %w", m.hook.Binding.JqFilter, u.GetNamespace(), u.GetName(), err)
		}
		it.filter = res
	}
	if m.hook.Binding.KeepFullObjectsInMemory || m.hook.Binding.Jq == nil {
		obj, err := json.Marshal(u.Object)
		if err != nil {
			return item{}, err
		}
		it.object = obj
	}
	return it, nil
}

func runJq(code *gojq.Code, obj map[string]any) (json.RawMessage, error) {
	iter := code.Run(obj)
	var out []any
	for {
		v, ok := iter.Next()
		if !ok {
			break
		}
		if err, isErr := v.(error); isErr {
			return nil, err
		}
		out = append(out, v)
	}
	var res any
	if len(out) == 1 {
		res = out[0]
	} else if len(out) > 1 {
		res = out
	}
	return json.Marshal(res)
}

// objects lists the snapshot in a stable order, for binding contexts.
func (m *monitor) objects() []bctx.ObjectAndFilterResult {
	keys := make([]string, 0, len(m.snapshot))
	for k := range m.snapshot {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := make([]bctx.ObjectAndFilterResult, 0, len(keys))
	for _, k := range keys {
		it := m.snapshot[k]
		out = append(out, bctx.ObjectAndFilterResult{Object: it.object, FilterResult: it.filter})
	}
	return out
}
