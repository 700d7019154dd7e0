package whatif

import (
	"encoding/json"
	"fmt"

	jsonpatch "github.com/evanphx/json-patch/v5"
	"sigs.k8s.io/yaml"

	"github.com/addon-actors/addon-operator/chartrun/manifestdiff"
	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/values"
	"github.com/addon-actors/addon-operator/values/mask"
)

// global builds the global values with the candidate "global" section
// over the values.yaml files, with the global hooks' in-memory patches
// replayed, as the global actor layers them. A section that breaks the
// schema makes the plan invalid; the values in force stay, as the actor
// keeps them.
func (c *candidate) global() {
	o := c.planner.opts
	current := o.Board.Global()
	c.globalV = current
	scope, err := values.NewGlobalScope(o.GlobalSchemas, o.Common)
	if err == nil {
		scope, err = withSection(scope, c.sections.Global, o.Board.Patches(messages.OwnerGlobal))
	}
	if err != nil {
		c.invalid(values.GlobalKey, err)
	} else {
		c.globalV = scope.Snapshot()
	}
	paths := o.Board.Passwords(values.GlobalKey)
	c.plan.Global = valuesChange(values.GlobalKey, current.Values, c.globalV.Values, paths, c.secrets(""))
}

// module builds a module's candidate values as its actor would
// (values.Scope.WithConfig, then its hooks' patches); invalid keeps the
// values in force.
func (c *candidate) module(def layout.Definition) values.Snapshot {
	o := c.planner.opts
	current, _ := o.Board.ModuleValues(def.Names.Name)
	scope, err := values.NewModuleScope(def.Names, def.Schemas, def.Common, def.Own)
	if err == nil {
		var section any
		if s, ok := c.sections.Modules[def.Names.ValuesKey]; ok {
			section = s
		}
		scope, err = withSection(scope, section, o.Board.Patches(def.Names.Name))
	}
	if err != nil {
		c.invalid(def.Names.ValuesKey, err)
		if current.Key == "" {
			current.Key = def.Names.ValuesKey
		}
		return current
	}
	return scope.Snapshot()
}

// withSection sets the ConfigMap layer and replays the owner's in-memory
// patches (as published on the board).
func withSection(scope values.Scope, section any, patches json.RawMessage) (values.Scope, error) {
	scope, err := scope.WithConfig(section)
	if err != nil {
		return scope, err
	}
	if len(patches) == 0 || string(patches) == "[]" || string(patches) == "null" {
		return scope, nil
	}
	p, err := jsonpatch.DecodePatch(patches)
	if err != nil {
		return scope, fmt.Errorf("%s: in-memory patches: %w", scope.Key(), err)
	}
	scope, _, err = scope.WithValuesPatch(p)
	return scope, err
}

// valuesChange is the candidate values of a scope and their YAML diff from
// the values in force, both with the values at paths and the secrets
// masked (a changed password shows as two different masks).
func valuesChange(key string, current, next any, paths mask.Paths, secrets mask.Secrets) ValuesChange {
	out := ValuesChange{Values: hidden(next, paths, secrets)}
	if values.Equal(current, next) {
		return out
	}
	before, _ := yaml.Marshal(map[string]any{key: hidden(current, paths, secrets)})
	after, _ := yaml.Marshal(map[string]any{key: out.Values})
	out.Diff = manifestdiff.Unified(string(before), string(after), key+" (in force)", key+" (candidate)")
	return out
}
