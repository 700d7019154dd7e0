package whatif

import (
	"slices"

	"github.com/addon-actors/addon-operator/values"
	"github.com/addon-actors/addon-operator/values/mask"
)

// secrets are the values of every `format: password` setting, in force
// (as the owners publish them) and in the candidate (the global section
// and the module's): what the plan masks wherever they show up, in values
// and in the release diffs.
func (c *candidate) secrets(module string) mask.Secrets {
	out := c.planner.opts.Board.Secrets()
	global := c.passwords(values.GlobalKey)
	out = out.With(global.Secrets(c.globalV.Config), global.Secrets(c.globalV.Values))
	if _, ok := c.defs[module]; ok {
		own := c.passwords(module)
		next := c.modules[module]
		out = out.With(own.Secrets(next.Config), own.Secrets(next.Values))
	}
	return out
}

// hidden masks a values section for the plan: the values at its password
// paths, and any of secrets elsewhere (a hook may copy a password).
func hidden(section any, paths mask.Paths, secrets mask.Secrets) any {
	return secrets.Document(paths.Document(section))
}

// passwords are the paths of owner's section to mask: its `format:
// password` settings, and those its ModuleConfig takes from Secrets, in
// force (as published) and in the candidate.
func (c *candidate) passwords(owner string) mask.Paths {
	out := c.planner.opts.Board.Passwords(owner)
	if def, ok := c.defs[owner]; ok {
		out = append(slices.Clip(out), def.Schemas.Passwords()...)
	}
	return append(slices.Clip(out), c.fromSecrets[owner]...)
}
