package hookrun

import (
	"sort"

	"github.com/addon-actors/addon-operator/hook/bindings"
	"github.com/addon-actors/addon-operator/hookexec"
	"github.com/addon-actors/addon-operator/messages"
)

// Hook is a discovered hook with its binding configuration.
type Hook struct {
	hookexec.Hook
	Config *bindings.Config
}

// HookSet is an owner's hooks, in discovery (alphabetical) order.
type HookSet []Hook

// Ordered returns the hooks bound to t, by ORDER number, then by name.
func (s HookSet) Ordered(t bindings.Type) []Hook {
	var out []Hook
	for _, h := range s {
		if _, ok := h.Config.Order(t); ok {
			out = append(out, h)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, _ := out[i].Config.Order(t)
		b, _ := out[j].Config.Order(t)
		return a < b
	})
	return out
}

// Find returns the hook named name.
func (s HookSet) Find(name string) (Hook, bool) {
	for _, h := range s {
		if h.Name == name {
			return h, true
		}
	}
	return Hook{}, false
}

// Schedules is the message that starts (or, on false, stops) the hooks'
// schedule bindings of an owner.
func (s HookSet) Schedules(ownerName, module string, on bool) messages.WatchSchedules {
	ws := messages.WatchSchedules{Owner: ownerName, Module: module}
	for _, h := range s {
		if on && h.Config != nil {
			for _, b := range h.Config.Schedules {
				ws.Schedules = append(ws.Schedules, messages.HookSchedule{Hook: h.Name, Version: h.Config.Version, Binding: b})
			}
		}
	}
	return ws
}

// Monitors is kube with the hooks' kubernetes bindings filled in (none
// when on is false: the message stops them). kube names the owner and how
// its Synchronization runs come back (SyncTo, WaitNamed).
func (s HookSet) Monitors(kube messages.WatchKube, on bool) messages.WatchKube {
	wk := kube
	wk.Monitors = nil
	for _, h := range s {
		if on && h.Config != nil {
			for _, b := range h.Config.Kubernetes {
				wk.Monitors = append(wk.Monitors, messages.HookMonitor{Hook: h.Name, Version: h.Config.Version, Binding: b})
			}
		}
	}
	return wk
}

// HasKubernetes tells whether any hook has a kubernetes binding.
func (s HookSet) HasKubernetes() bool {
	for _, h := range s {
		if h.Config != nil && len(h.Config.Kubernetes) > 0 {
			return true
		}
	}
	return false
}

// HasWebhooks tells whether some hook has a webhook binding.
func (s HookSet) HasWebhooks() bool {
	for _, h := range s {
		if h.Config != nil && h.Config.HasWebhooks() {
			return true
		}
	}
	return false
}
