package config

import (
	"testing"

	"github.com/addon-actors/addon-operator/moduleconfig"
)

func TestTargetsMoved(t *testing.T) {
	objects := func(names ...string) []moduleconfig.ModuleConfig {
		out := make([]moduleconfig.ModuleConfig, 0, len(names))
		for _, n := range names {
			out = append(out, moduleconfig.ModuleConfig{Metadata: moduleconfig.Metadata{Name: n}})
		}
		return out
	}
	targets := func(names ...string) map[string]moduleconfig.Target {
		out := map[string]moduleconfig.Target{}
		for _, n := range names {
			out[n] = moduleconfig.Target{}
		}
		return out
	}
	tests := []struct {
		name        string
		objects     []moduleconfig.ModuleConfig
		before, now map[string]moduleconfig.Target
		moved       bool
	}{
		{name: "the module of an object found", objects: objects("web", "late"), before: targets("web"), now: targets("web", "late"), moved: true},
		{name: "the module of an object gone", objects: objects("web"), before: targets("web", "db"), now: targets("db"), moved: true},
		{name: "a module without an object found", objects: objects("web"), before: targets("web"), now: targets("web", "db")},
		{name: "nothing changed", objects: objects("web", "ghost"), before: targets("web"), now: targets("web")},
		{name: "no objects", before: targets(), now: targets("web")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := targetsMoved(tc.objects, tc.before, tc.now); got != tc.moved {
				t.Fatalf("moved %v, want %v", got, tc.moved)
			}
		})
	}
}
