package kube

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/addon-actors/addon-operator/messages"
)

// The kinds of an owner's bindings are resolved off the actor's mailbox
// (discovery can be slow, or time out while the apiserver is away): a
// goroutine resolves them all and posts resolved, and the actor starts the
// monitors when it gets it. The owner's WatchKube waits in pending until
// then; a newer WatchKube of the owner makes the result stale.

// pendingWatch is a WatchKube whose kinds are being resolved.
type pendingWatch struct {
	token int
	msg   messages.WatchKube
}

// resolved carries the resolutions of a WatchKube's monitors, in their
// order, back to the actor.
type resolved struct {
	owner    string
	token    int
	mappings []resolution
}

// resolution is one monitor's resource, or why it has none.
type resolution struct {
	mapping *meta.RESTMapping
	err     error
}

// resolveAll resolves the kind of every monitor (on its own goroutine).
func resolveAll(mapper meta.RESTMapper, monitors []messages.HookMonitor) []resolution {
	out := make([]resolution, len(monitors))
	for i, h := range monitors {
		mapping, err := resolve(mapper, h.Binding.APIVersion, h.Binding.Kind)
		if err != nil {
			err = fmt.Errorf("hook %s binding %s: %w", h.Hook, h.Binding.Name, err)
		}
		out[i] = resolution{mapping: mapping, err: err}
	}
	return out
}

// resolve finds the resource of a binding's apiVersion and kind; the kind is
// matched case-insensitively (the older form writes "pod").
func resolve(mapper meta.RESTMapper, apiVersion, kind string) (*meta.RESTMapping, error) {
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return nil, fmt.Errorf("apiVersion %q: %w", apiVersion, err)
	}
	if m, err := mapper.RESTMapping(schema.GroupKind{Group: gv.Group, Kind: kind}, versions(gv)...); err == nil {
		return m, nil
	}
	gvk, err := mapper.KindFor(schema.GroupVersionResource{Group: gv.Group, Version: gv.Version, Resource: strings.ToLower(kind)})
	if err != nil {
		return nil, fmt.Errorf("kind %q of apiVersion %q is not served by the apiserver: %w", kind, apiVersion, err)
	}
	return mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
}

func versions(gv schema.GroupVersion) []string {
	if gv.Version == "" {
		return nil
	}
	return []string{gv.Version}
}
