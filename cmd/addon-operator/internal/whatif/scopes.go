package whatif

import (
	"encoding/json"
	"errors"
	"fmt"

	jsonpatch "github.com/evanphx/json-patch/v5"
	"sigs.k8s.io/yaml"

	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/chartrun/manifestdiff"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/values"
	"github.com/addon-actors/addon-operator/values/mask"
)

// global builds the candidate global values as the global actor takes a
// ConfigMap change (candidateScope). A section the actor refuses makes
// the plan invalid; the values in force stay, as the actor keeps them.
func (c *candidate) global() {
	o := c.planner.opts
	published, _ := o.Board.OwnerValues(values.GlobalKey)
	c.globalV = published.Snapshot
	// As the actor starts: a validation error here is not final, required
	// keys may come with the section.
	scope, _ := values.NewGlobalScope(o.GlobalSchemas, o.Common)
	if next, err := candidateScope(scope, messages.OwnerGlobal, published, c.sections.Global); err != nil {
		c.invalid(values.GlobalKey, err)
	} else {
		c.globalV = next.Snapshot()
	}
	c.plan.Global = valuesChange(values.GlobalKey, published.Snapshot.Values, c.globalV.Values, published.Passwords, c.secrets(""))
}

// module builds a module's candidate values as its actor takes a
// ConfigMap change (candidateScope); invalid keeps the values in force.
func (c *candidate) module(def layout.Definition) values.Snapshot {
	published, _ := c.planner.opts.Board.OwnerValues(def.Names.Name)
	scope, _ := values.NewModuleScope(def.Names, def.Schemas, def.Common, def.Own) // as the actor starts
	var section any
	if s, ok := c.sections.Modules[def.Names.ValuesKey]; ok {
		section = s
	}
	next, err := candidateScope(scope, messages.ModuleOwner(def.Names.Name), published, section)
	if err != nil {
		c.invalid(def.Names.ValuesKey, err)
		current := published.Snapshot
		if current.Key == "" {
			current.Key = def.Names.ValuesKey
		}
		return current
	}
	return next.Snapshot()
}

// candidateScope takes the candidate section into an owner's scope as its
// actor takes a ConfigMap change (hookrun.ApplySection: the section over
// the values files, OpenAPI defaults and validation, then the in-memory
// patches replayed), starting from the scope the actor holds now: the
// section in force, then its hooks' patches (as published).
func candidateScope(scope values.Scope, owner string, published board.OwnerValues, section any) (values.Scope, error) {
	scope, reply := hookrun.ApplySection(scope, owner, published.Snapshot.Config)
	if reply.Err != "" {
		return scope, fmt.Errorf("the section in force: %s", reply.Err)
	}
	scope, err := withPatches(scope, published.Patches)
	if err != nil {
		return scope, err
	}
	next, reply := hookrun.ApplySection(scope, owner, section)
	if reply.Err != "" {
		return next, errors.New(reply.Err)
	}
	return next, nil
}

// withPatches adds an owner's published in-memory patches to scope.
func withPatches(scope values.Scope, patches json.RawMessage) (values.Scope, error) {
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
