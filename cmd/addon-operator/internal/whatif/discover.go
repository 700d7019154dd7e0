package whatif

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/addon-actors/addon-operator/actors/operator"
	"github.com/addon-actors/addon-operator/hookexec"
	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/values"
)

// discover is the operator's discovery with the candidate: the enabled
// flags (values.yaml files, candidate ConfigMap, global hooks' flags),
// then each candidate's enabled script in module order, with the
// candidate values and the modules enabled before it.
func (c *candidate) discover(ctx context.Context, defs []layout.Definition) error {
	o := c.planner.opts
	dynamic := o.Board.DynamicEnabled()
	c.modules, c.byScript, c.defs = map[string]values.Snapshot{}, map[string]bool{}, map[string]layout.Definition{}
	c.unmet = map[string][]string{}
	for _, def := range defs {
		c.defs[def.Names.Name] = def
	}
	c.held = layout.HeldByRequirements(defs, c.leftAsIs)
	for _, def := range operator.RunOrder(defs) {
		name := def.Names.Name
		if c.skipped(name) {
			continue
		}
		c.modules[name] = c.module(def)
		layers := append(def.StaticEnabled(), c.sections.Enabled, dynamic)
		if !values.EnabledByLayers(def.Names.ValuesKey, layers...) {
			continue
		}
		if unmet := layout.UnmetAmong(c.defs, name, c.plan.Enabled, o.KubeVersion); len(unmet) > 0 {
			c.unmet[name] = unmet
			continue
		}
		enabled, err := c.script(ctx, def)
		if err != nil {
			return err
		}
		if enabled {
			c.plan.Enabled = append(c.plan.Enabled, name)
		} else {
			c.byScript[name] = true
		}
	}
	if len(c.unmet) > 0 {
		c.plan.Unmet = c.unmet
	}
	return nil
}

// script runs the module's enabled script as the module actor does, with
// its own temp files; a module without one is enabled.
func (c *candidate) script(ctx context.Context, def layout.Definition) (bool, error) {
	script, ok, err := hookexec.EnabledScript(def.Dir)
	if err != nil || !ok {
		return err == nil, err
	}
	in := values.ModuleHookInput(c.globalV, c.modules[def.Names.Name], slices.Clone(c.plan.Enabled))
	vals, err := json.Marshal(in.Values)
	if err != nil {
		return false, fmt.Errorf("enabled script of %s: values: %w", def.Names.Name, err)
	}
	cfg, err := json.Marshal(in.ConfigValues)
	if err != nil {
		return false, fmt.Errorf("enabled script of %s: config values: %w", def.Names.Name, err)
	}
	res, err := c.planner.opts.Enabled.RunEnabled(ctx, hookexec.EnabledRequest{Script: script, Values: vals,
		ConfigValues: cfg, Logger: c.planner.opts.Log.With("module", def.Names.Name, "plan", true)})
	if err != nil {
		return false, fmt.Errorf("enabled script of %s: %w", def.Names.Name, err)
	}
	return res.Enabled != nil && *res.Enabled, nil
}
