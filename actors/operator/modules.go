package operator

import (
	"errors"
	"maps"
	"slices"
	"sort"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/values"
)

// Scanner reads the modules dirs again (layout.Scan with the start-up's
// common values).
type Scanner func() ([]layout.Definition, []error)

type (
	// scanModules asks the ioActor to read the modules dirs; Known are the
	// dirs of the modules running now.
	scanModules struct{ Known map[string]string }
	// modulesScanned lists what is there now: Defs (in module order), the
	// dirs that could not be read (Errs), the known modules whose dir is
	// gone, and those whose dir cannot be seen (by name, with the reason).
	modulesScanned struct {
		Defs   []layout.Definition
		Errs   []error
		Gone   []string
		Unseen map[string]string
	}
)

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
func diffModules(known []layout.Definition, scan modulesScanned) moduleChanges {
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

// startDiscovery reads the modules dirs again when the operator can spawn
// module actors, then discovers. Until the first converge is done the
// modules are those the start-up has just read.
func (l *lifecycle) startDiscovery(ctx actor.Context) {
	if l.opts.Scan == nil || l.opts.ModuleProps == nil || !l.opts.Board.Ready() {
		l.discover(ctx)
		return
	}
	known := map[string]string{}
	for _, d := range l.opts.Modules {
		known[d.Names.Name] = d.Dir
	}
	l.scanning = true
	ctx.Request(l.io, scanModules{Known: known})
}

func (l *lifecycle) handleModulesScanned(ctx actor.Context, msg modulesScanned) {
	if !l.scanning {
		return
	}
	l.scanning = false
	unseen := map[string]string{}
	maps.Copy(unseen, msg.Unseen)
	for _, err := range msg.Errs {
		if ue := (*layout.UnseenModuleError)(nil); errors.As(err, &ue) {
			if _, known := unseen[ue.Module]; !known { // a dir not seen since start-up
				unseen[ue.Module] = "dir cannot be seen, kept with its release until it can: " + err.Error()
			}
			continue
		}
		l.opts.Log.Error("module dir not read; the module keeps its last good state", "err", err)
	}
	l.setUnseen(unseen)
	l.unloaded = layout.Unloaded(msg.Errs)
	c := diffModules(l.opts.Modules, msg)
	if !l.acceptModules(c.next) {
		l.discover(ctx)
		return
	}
	for _, name := range c.removed {
		l.removeModule(ctx, name)
	}
	l.opts.Modules = c.next
	for _, d := range c.added {
		l.addModule(ctx, d)
	}
	if len(c.added) > 0 || len(c.removed) > 0 {
		l.tellReaders(ctx)
	}
	l.discover(ctx)
}

// acceptModules refuses a modules set whose requirements form a cycle:
// the last good set stays in force, the error is logged, counted and
// shown in `module list` until a scan finds the cycle gone.
func (l *lifecycle) acceptModules(next []layout.Definition) bool {
	_, err := layout.RequirementOrder(next)
	if err == nil {
		if l.modulesError != "" {
			l.opts.Log.Info("module requirements no longer form a cycle; the modules dirs are taken as they are")
			l.modulesError = ""
			l.publishConverge()
		}
		return true
	}
	if l.opts.DiscoverErrors != nil {
		l.opts.DiscoverErrors.Inc()
	}
	l.modulesError = err.Error()
	l.publishConverge() // before the log: a reader of the log finds module list saying so
	l.opts.Log.Error("modules dirs refused; the last good set of modules stays in force", "err", err)
	return false
}

// removeModule stops the actor of a module whose dir is gone; its release
// (if any) is purged by this discovery, without afterDeleteHelm.
func (l *lifecycle) removeModule(ctx actor.Context, name string) {
	child := ModuleChild(name)
	if pid := l.children.PID(child); pid != nil {
		ctx.Send(pid, messages.ModuleRemoved{})
	}
	l.children.Remove(ctx, child)
	delete(l.failed, messages.ModuleOwner(name))
	l.opts.Log.Info("module dir removed; its actor is stopped", "module", name)
}

// addModule starts the actor of a module whose dir appeared; the config
// actor hands it its ConfigMap section (tellReaders); discovery waits for
// its hooks to configure.
func (l *lifecycle) addModule(ctx actor.Context, d layout.Definition) {
	child := Child{Name: ModuleChild(d.Names.Name), Props: l.opts.ModuleProps(d)}
	if _, err := l.children.Spawn(ctx, child, ChildQueue); err != nil {
		l.opts.Log.Error("new module not started", "module", d.Names.Name, "err", err)
		l.failed[messages.ModuleOwner(d.Names.Name)] = true
		return
	}
	l.opts.Log.Info("module dir appeared; its actor is started", "module", d.Names.Name)
	for _, key := range d.ModuleYAMLIgnored {
		l.opts.Log.Debug("module.yaml field accepted; it changes nothing here", "module", d.Names.Name, "field", key)
	}
}

// setUnseen records the modules whose dir cannot be seen now: they keep
// their actor and release, sit out discovery (neither run nor deleted)
// until their dir is back, and show the reason in the module list.
func (l *lifecycle) setUnseen(unseen map[string]string) {
	if len(unseen) > 0 || len(l.unseen) > 0 {
		// Published before the log: a reader of the log finds module list
		// saying so.
		l.unseen = unseen
		l.publishUnseen()
	}
	for name, reason := range unseen {
		l.opts.Log.Error("module dir cannot be seen; the module and its release are kept, and it is neither run nor deleted until it can",
			"module", name, "err", reason)
	}
}

// publishUnseen hands the modules whose dir cannot be seen to the board
// and the metric.
func (l *lifecycle) publishUnseen() {
	if l.opts.Board != nil {
		l.opts.Board.SetDirErrors(maps.Clone(l.unseen))
	}
	if l.opts.DirErrors != nil {
		l.opts.DirErrors(maps.Clone(l.unseen))
	}
}

// skipped are the modules discovery leaves as they are: those that failed
// to start, those whose dir cannot be seen, and those that require one of
// these (held, set by each discovery).
func (l *lifecycle) skipped(name string) bool {
	return l.selfSkipped(name) || l.held[name] != ""
}

// selfSkipped: the module failed to start, or its dir cannot be seen or
// loaded (a module that requires it is held, not judged unmet).
func (l *lifecycle) selfSkipped(name string) bool {
	return l.failed[messages.ModuleOwner(name)] || l.unseen[name] != "" || slices.Contains(l.unloaded, name)
}
