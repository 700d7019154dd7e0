package operator

import (
	"errors"
	"log/slog"
	"maps"
	"slices"
	"sort"

	"github.com/addon-actors/addon-operator/actors/step"
	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/values"
)

// Scanner reads the modules dirs again (layout.Scan with the start-up's
// common values).
type Scanner func() ([]layout.Definition, []error)

// moduleChanges are what a scan changes in the running modules.
type moduleChanges struct {
	// next is the module list from now on: a known module keeps its
	// definition (its actor has it), even if its dir could not be read
	// this time; a new one is added in module order.
	next    []layout.Definition
	added   []layout.Definition
	removed []string
}

// diffModules decides, purely, what the scan changes. Only a dir that is
// gone removes a module: one that could not be read keeps its last good
// definition.
func diffModules(known []layout.Definition, scan ModulesScanned) moduleChanges {
	gone := map[string]bool{}
	for _, name := range scan.Gone {
		gone[name] = true
	}
	byName := map[string]layout.Definition{}
	for _, d := range known {
		byName[d.Names.Name] = d
	}
	var c moduleChanges
	seen := map[string]bool{}
	for _, d := range scan.Defs {
		seen[d.Names.Name] = true
		if old, ok := byName[d.Names.Name]; ok {
			// module.yaml and Chart.yaml's version are read again: the
			// operator decides from them, not the module's actor.
			old.Requirements, old.Version = d.Requirements, d.Version
			c.next = append(c.next, old)
			continue
		}
		c.next = append(c.next, d)
		c.added = append(c.added, d)
	}
	for _, d := range known {
		switch {
		case gone[d.Names.Name]:
			c.removed = append(c.removed, d.Names.Name)
		case !seen[d.Names.Name]:
			c.next = append(c.next, d) // unreadable this time: kept as it was
		}
	}
	sort.SliceStable(c.next, func(i, j int) bool { return values.RunsBefore(c.next[i].Names, c.next[j].Names) })
	return c
}

// startDiscovery reads the modules dirs again when the operator can start
// module actors, then discovers. Until the first converge is done the
// modules are those the start-up has just read.
func (c *Core) startDiscovery(env Env) []Effect {
	if !c.opts.Rescan || !c.ready {
		return c.discover(env)
	}
	known := map[string]string{}
	for _, d := range c.modules {
		known[d.Names.Name] = d.Dir
	}
	c.scanning = true
	return []Effect{ScanModules{Known: known}}
}

// modulesScanned takes the scan: a refused set (a requirements cycle)
// leaves the modules as they are; otherwise the actors of gone modules
// stop and those of new ones start, and discovery waits for them.
func (c *Core) modulesScanned(msg ModulesScanned, env Env) []Effect {
	if !c.scanning {
		return nil
	}
	c.scanning = false
	msg = judgeDirs(msg)
	out := c.sortScanErrors(msg)
	c.sit.unloaded = layout.Unloaded(msg.Errs)
	ch := diffModules(c.modules, msg)
	accepted, refusal := c.acceptModules(ch.next)
	out = append(out, refusal...)
	if !accepted {
		return append(out, c.discover(env)...)
	}
	for _, name := range ch.removed {
		delete(c.sit.failed, messages.ModuleOwner(name))
		out = append(out, ModuleOut{Name: name, How: OutRemoved},
			Log(step.At(slog.LevelInfo, "module dir removed; its actor is stopped", "module", name)))
	}
	c.modules = ch.next
	if len(ch.added) > 0 {
		return append(out, SpawnModules{Defs: ch.added})
	}
	if len(ch.removed) > 0 {
		out = append(out, TellReaders{Modules: c.modules})
	}
	return append(out, c.discover(env)...)
}

// modulesSpawned: the actors of the new modules started (but those
// that failed); the config actor hands them their sections, and
// discovery goes on.
func (c *Core) modulesSpawned(msg ModulesSpawned, env Env) []Effect {
	var out []Effect
	for _, d := range msg.Defs {
		name := d.Names.Name
		if err, failed := msg.Failed[name]; failed {
			c.sit.failed[messages.ModuleOwner(name)] = failedToStart
			out = append(out, Log(step.At(slog.LevelError, "new module not started", "module", name, "err", err)))
			continue
		}
		out = append(out, Log(step.At(slog.LevelInfo, "module dir appeared; its actor is started", "module", name)))
		for _, key := range d.ModuleYAMLIgnored {
			out = append(out, Log(step.At(slog.LevelDebug, "module.yaml field accepted; it changes nothing here", "module", name, "field", key)))
		}
	}
	out = append(out, TellReaders{Modules: c.modules})
	return append(out, c.discover(env)...)
}

// sortScanErrors records the modules whose dir cannot be seen (those the
// scan names, and dirs not seen since start-up); other unreadable dirs
// keep their module's last good state.
func (c *Core) sortScanErrors(msg ModulesScanned) []Effect {
	unseen := map[string]string{}
	maps.Copy(unseen, msg.Unseen)
	var out []Effect
	for _, err := range msg.Errs {
		if ue := (*layout.UnseenModuleError)(nil); errors.As(err, &ue) {
			if _, known := unseen[ue.Module]; !known { // a dir not seen since start-up
				unseen[ue.Module] = "dir cannot be seen, kept with its release until it can: " + err.Error()
			}
			continue
		}
		out = append(out, Log(step.At(slog.LevelError, "module dir not read; the module keeps its last good state", "err", err)))
	}
	return append(out, c.setUnseen(unseen)...)
}

// acceptModules refuses a modules set whose requirements form a cycle:
// the last good set stays in force, the error is logged, counted and
// shown in `module list` until a scan finds the cycle gone.
func (c *Core) acceptModules(next []layout.Definition) (bool, []Effect) {
	_, err := layout.RequirementOrder(next)
	if err == nil {
		if c.modulesError == "" {
			return true, nil
		}
		c.modulesError = ""
		return true, []Effect{
			Log(step.At(slog.LevelInfo, "module requirements no longer form a cycle; the modules dirs are taken as they are")),
			c.publishConverge()}
	}
	c.modulesError = err.Error()
	return false, []Effect{Count{Metric: MetricDiscoverErrors},
		c.publishConverge(), // before the log: a reader of the log finds module list saying so
		Log(step.At(slog.LevelError, "modules dirs refused; the last good set of modules stays in force", "err", err))}
}

// setUnseen records the modules whose dir cannot be seen now: they keep
// their actor and release, sit out discovery (neither run nor deleted)
// until their dir is back, and show the reason in the module list.
func (c *Core) setUnseen(unseen map[string]string) []Effect {
	var out []Effect
	if len(unseen) > 0 || len(c.sit.unseen) > 0 {
		// Published before the log: a reader of the log finds module list
		// saying so.
		c.sit.unseen = unseen
		out = append(out, c.publishUnseen())
	}
	for _, name := range slices.Sorted(maps.Keys(unseen)) {
		out = append(out, Log(step.At(slog.LevelError, "module dir cannot be seen; the module and its release are kept, and it is neither run nor deleted until it can",
			"module", name, "err", unseen[name])))
	}
	return out
}

// publishUnseen hands the modules whose dir cannot be seen to the board
// and the metric.
func (c *Core) publishUnseen() Effect {
	return PublishUnseen{Unseen: maps.Clone(c.sit.unseen)}
}
