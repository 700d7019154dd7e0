package owner

import (
	"sort"

	"github.com/addon-actors/addon-operator/hookexec"
	"github.com/addon-actors/addon-operator/hookexec/bindings"
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
