package configreview

import (
	"sort"

	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/moduleconfig"
)

// Catalog is what reviews check objects against: the targets of the
// modules the operator loaded and of the global values, and which modules
// require each module. It is built once per reading of the modules dirs
// and read by any number of reviews at once; nothing in it changes.
type Catalog struct {
	global  *moduleconfig.Target
	modules map[string]moduleconfig.Target
	// requiredBy are, by module, the modules whose module.yaml requires it
	// (not optionally), sorted.
	requiredBy map[string][]string
}

// NewCatalog builds the catalog of defs (the modules loaded) and global
// (the global ModuleConfig's target; nil: global objects are not checked).
func NewCatalog(defs []layout.Definition, global *moduleconfig.Target) *Catalog {
	c := &Catalog{global: global, modules: make(map[string]moduleconfig.Target, len(defs)), requiredBy: map[string][]string{}}
	for _, def := range defs {
		c.modules[def.Names.Name] = moduleconfig.ModuleTarget(def)
		for _, req := range def.Requirements.Modules {
			if !req.Optional {
				c.requiredBy[req.Module] = append(c.requiredBy[req.Module], def.Names.Name)
			}
		}
	}
	for _, by := range c.requiredBy {
		sort.Strings(by)
	}
	return c
}

// target is what the object named name is checked against; nil for a
// module the catalog does not hold.
func (c *Catalog) target(name string) *moduleconfig.Target {
	if name == moduleconfig.GlobalName {
		return c.global
	}
	if t, ok := c.modules[name]; ok {
		return &t
	}
	return nil
}

// Targets are the catalog's targets by ModuleConfig name (its modules',
// and "global" when the catalog has the global values'): what the read
// side lays the objects over, so that it and the webhook check an object
// against the same reading of the modules dirs.
func (c *Catalog) Targets() map[string]moduleconfig.Target {
	out := make(map[string]moduleconfig.Target, len(c.modules)+1)
	for name, t := range c.modules {
		out[name] = t
	}
	if c.global != nil {
		out[moduleconfig.GlobalName] = *c.global
	}
	return out
}
