package whatif

import (
	"context"

	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/moduleconfig"
	"github.com/addon-actors/addon-operator/values/mask"
)

// withModuleConfigs lays the request's ModuleConfigs over the candidate
// ConfigMap data with their precedence (moduleconfig.Overlay), each
// validated first as the operator will (moduleconfig.Validate: converted
// to its module's latest settings version). A ModuleConfig that is not
// valid makes the plan invalid (Problem key "ModuleConfig/NAME"); the
// ConfigMap keys they hide and their warnings go to the plan's Warnings.
// The global ModuleConfig has no conversions here yet: its settings must
// be at version 1. The values of spec.settingsFrom are read through
// Options.Secrets (unknown without it: a warning); the paths they set are
// returned by module, to mask.
func (p *Planner) withModuleConfigs(ctx context.Context, data map[string]string, objects []moduleconfig.ModuleConfig,
	out *Plan) (map[string]string, map[string]mask.Paths) {
	if len(objects) == 0 {
		return data, nil
	}
	defs, _ := p.opts.Scan()
	var secrets moduleconfig.SecretValues
	if p.opts.Secrets != nil {
		secrets = p.opts.Secrets(ctx)
	}
	fromSecrets := map[string]mask.Paths{}
	converted := make([]moduleconfig.ModuleConfig, 0, len(objects))
	for _, mc := range objects {
		r := moduleconfig.ValidateFrom(mc, p.moduleConfigTarget(mc, defs), secrets)
		out.Warnings = append(out.Warnings, r.Warnings...)
		fromSecrets[mc.Metadata.Name] = r.SecretPaths
		if r.Err != nil {
			out.invalid("ModuleConfig/"+mc.Metadata.Name, r.Err)
			continue
		}
		mc.Spec.Settings = r.Settings
		converted = append(converted, mc)
	}
	next, hidden, err := moduleconfig.Overlay(data, converted)
	if err != nil {
		out.invalid("", err)
		return data, fromSecrets
	}
	out.Warnings = append(out.Warnings, hidden...)
	return next, fromSecrets
}

// moduleConfigTarget is what mc is checked against; nil for a module no
// modules dir holds.
func (p *Planner) moduleConfigTarget(mc moduleconfig.ModuleConfig, defs []layout.Definition) *moduleconfig.Target {
	if mc.IsGlobal() {
		t := moduleconfig.GlobalTarget(p.opts.GlobalSchemas, p.opts.Common, p.opts.GlobalConversions)
		return &t
	}
	for _, def := range defs {
		if def.Names.Name == mc.Metadata.Name {
			t := moduleconfig.ModuleTarget(def)
			return &t
		}
	}
	return nil
}

func (p *Plan) invalid(key string, err error) {
	p.Valid = false
	p.Errors = append(p.Errors, Problem{Key: key, Error: err.Error()})
}
