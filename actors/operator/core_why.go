package operator

import (
	"fmt"
	"slices"
	"time"

	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/values"
)

// Layer names of a module's enabled flag, low to high, as `module why`
// shows them.
const (
	LayerModulesValues = "modules values.yaml"
	LayerModuleValues  = "module values.yaml"
	LayerConfigMap     = "ConfigMap"
	LayerGlobalHook    = "global hook"
)

// whyInput is what one module's enabled decision is read from: the layers
// and what discovery made of them.
type whyInput struct {
	def      layout.Definition
	config   values.Sections
	dynamic  map[string]bool
	enabled  bool     // discovery enabled it
	byScript bool     // its enabled script said false
	unmet    []string // its unmet requirements, which disabled it
	leftOut  string   // why discovery left it out ("" when it did not)
	at       time.Time
}

// enabledDecision records, purely, how discovery decided a module: each
// layer's say, the enabled script's answer and a sentence naming what
// decided.
func enabledDecision(in whyInput) board.EnabledDecision {
	names := in.def.Names
	d := board.EnabledDecision{Module: names.Name, Layers: enabledLayers(in), Enabled: in.enabled, At: in.at,
		Requires: requiresText(in.def.Requirements), Unmet: in.unmet}
	layers := append(in.def.StaticEnabled(), in.config.Enabled, in.dynamic)
	d.ByLayers = values.EnabledByLayers(names.ValuesKey, layers...)
	switch {
	case in.leftOut != "":
		d.Reason = in.leftOut
	case !d.ByLayers:
		_, d.Reason = disabledBy(in.def, in.config, in.dynamic, false)
	case len(in.unmet) > 0:
		d.Reason = unmetText(in.unmet)
	case in.byScript:
		d.Script, d.Reason = "false", "disabled by its enabled script"
	case !in.def.HasEnabledScript:
		d.Script, d.Reason = "none", enabledByText(d.Layers)+"; no enabled script"
	default:
		d.Script, d.Reason = "true", enabledByText(d.Layers)+"; its enabled script said true"
	}
	return d
}

// enabledLayers is each layer's say, low to high.
func enabledLayers(in whyInput) []board.EnabledLayer {
	key, flag := in.def.Names.ValuesKey, in.def.Names.EnabledKey
	configKey := flag
	if in.config.FalseSections[key] {
		configKey = key
	}
	src := []struct {
		layer, key string
		say        map[string]bool
	}{
		{LayerModulesValues, flag, in.def.Common.Enabled},
		{LayerModuleValues, flag, in.def.Own.Enabled},
		{LayerConfigMap, configKey, in.config.Enabled},
		{LayerGlobalHook, flag, in.dynamic},
	}
	out := make([]board.EnabledLayer, 0, len(src))
	for _, s := range src {
		l := board.EnabledLayer{Layer: s.layer, Key: s.key}
		if v, ok := s.say[key]; ok {
			l.Value = &v
		}
		out = append(out, l)
	}
	return out
}

// enabledByText names the highest layer that says true.
func enabledByText(layers []board.EnabledLayer) string {
	for i := len(layers) - 1; i >= 0; i-- {
		if v := layers[i].Value; v != nil && *v {
			return fmt.Sprintf("enabled by %s key %s", layers[i].Layer, layers[i].Key)
		}
	}
	return "enabled"
}

// decisions publishes how the discovery d decided every module.
func (c *Core) decisions(d *discovery, env Env) map[string]board.EnabledDecision {
	out := make(map[string]board.EnabledDecision, len(c.modules))
	for _, def := range c.modules {
		name := def.Names.Name
		out[name] = enabledDecision(whyInput{def: def, config: c.config, dynamic: d.dynamic,
			enabled: slices.Contains(d.enabled, name), byScript: d.byScript[name], unmet: d.unmet[name], leftOut: c.LeftOut(name), at: env.Now})
	}
	return out
}

// requiresText lists a module's requirements as module.yaml states them.
func requiresText(r layout.Requirements) []string {
	var out []string
	if r.Kubernetes != "" {
		out = append(out, "kubernetes "+r.Kubernetes)
	}
	for _, m := range r.Modules {
		s := m.Module + " " + m.Constraint
		if m.Optional {
			s += " (optional)"
		}
		out = append(out, s)
	}
	return out
}
