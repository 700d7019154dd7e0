package config

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/cache"

	"github.com/addon-actors/addon-operator/chartrun/crds"
	"github.com/addon-actors/addon-operator/moduleconfig"
	"github.com/addon-actors/addon-operator/supervision/kubewatch"
)

// ModuleConfigResource is the ModuleConfigs' resource.
var ModuleConfigResource = schema.GroupVersionResource{Group: moduleconfig.Group, Version: moduleconfig.Version,
	Resource: moduleconfig.Resource}

// Objects is the ModuleConfigs on the apiserver, through a dynamic client:
// the ModuleConfigSource and StatusWriter of the running operator.
type Objects struct {
	Client dynamic.Interface
	Log    *slog.Logger
	// Watch is what the watch reports its drops and resumes to.
	Watch kubewatch.Options
}

// WriteStatus writes the object's status (crds.WriteStatus).
func (o Objects) WriteStatus(ctx context.Context, name string, st moduleconfig.Status) error {
	return crds.WriteStatus(ctx, o.Client, ModuleConfigResource, name, st)
}

// Run creates the CRD when it is missing (crds.EnsureOwn), then reports
// every ModuleConfig after the first list and after each change, until ctx
// is done.
func (o Objects) Run(ctx context.Context, onChange func([]moduleconfig.ModuleConfig)) error {
	if err := crds.EnsureOwn(ctx, o.Client, moduleconfig.CRD()); err != nil {
		return fmt.Errorf("ModuleConfig CRD: %w", err)
	}
	r := &objectReporter{byName: map[string]moduleconfig.ModuleConfig{}, onChange: onChange, log: o.Log}
	informer := kubewatch.NewInformer(o.listWatch(ctx), &unstructured.Unstructured{}, "ModuleConfigs", nil,
		kubewatch.Handler{Add: r.put, Update: r.update, Delete: r.remove})
	stopped, synced := runInformer(ctx, informer)
	if synced {
		r.synced()
	}
	<-stopped
	return nil
}

func (o Objects) listWatch(ctx context.Context) *cache.ListWatch {
	opts := o.Watch
	opts.What = []any{"watch", "ModuleConfigs"}
	guard := kubewatch.New(ctx, opts)
	res := o.Client.Resource(ModuleConfigResource)
	return &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, lo metav1.ListOptions) (runtime.Object, error) {
			return kubewatch.Do(ctx, guard, "list", func(ctx context.Context) (runtime.Object, error) {
				return res.List(ctx, lo)
			})
		},
		WatchFuncWithContext: func(ctx context.Context, lo metav1.ListOptions) (watch.Interface, error) {
			return kubewatch.Do(ctx, guard, "watch", func(ctx context.Context) (watch.Interface, error) {
				return res.Watch(ctx, lo)
			})
		},
	}
}

// objectReporter keeps the objects by name and reports the whole set once
// synced, then after each change.
type objectReporter struct {
	mu       sync.Mutex
	byName   map[string]moduleconfig.ModuleConfig
	isSynced bool
	onChange func([]moduleconfig.ModuleConfig)
	log      *slog.Logger
}

func (r *objectReporter) put(obj any) {
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return
	}
	mc, err := fromUnstructured(u)
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil {
		// The CRD's schema makes this rare; the last good stays in force.
		r.log.Error("ModuleConfig not read; its last version read stays in force", "moduleConfig", u.GetName(), "err", err)
		return
	}
	r.byName[mc.Metadata.Name] = mc
	r.reportLocked()
}

// update reports a new generation only: a status write (ours) changes
// nothing the layering reads.
func (r *objectReporter) update(old, obj any) {
	o, ok1 := old.(*unstructured.Unstructured)
	n, ok2 := obj.(*unstructured.Unstructured)
	if ok1 && ok2 && o.GetGeneration() == n.GetGeneration() && o.GetGeneration() != 0 {
		return
	}
	r.put(obj)
}

func (r *objectReporter) remove(obj any) {
	if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = d.Obj
	}
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.byName, u.GetName())
	r.reportLocked()
}

func (r *objectReporter) synced() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.isSynced = true
	r.reportLocked()
}

func (r *objectReporter) reportLocked() {
	if !r.isSynced {
		return
	}
	names := slices.Sorted(maps.Keys(r.byName))
	out := make([]moduleconfig.ModuleConfig, len(names))
	for i, n := range names {
		out[i] = r.byName[n]
	}
	r.onChange(out)
}

// fromUnstructured reads an object as a ModuleConfig (status left out:
// it is the operator's own).
func fromUnstructured(u *unstructured.Unstructured) (moduleconfig.ModuleConfig, error) {
	raw, err := json.Marshal(u.Object)
	if err != nil {
		return moduleconfig.ModuleConfig{}, fmt.Errorf("ModuleConfig %q: %w", u.GetName(), err)
	}
	var mc moduleconfig.ModuleConfig
	if err := json.Unmarshal(raw, &mc); err != nil {
		return moduleconfig.ModuleConfig{}, fmt.Errorf("ModuleConfig %q: %w", u.GetName(), err)
	}
	mc.Status = moduleconfig.Status{}
	return mc, nil
}
