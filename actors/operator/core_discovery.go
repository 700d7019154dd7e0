package operator

import (
	"fmt"
	"log/slog"
	"maps"
	"slices"

	"github.com/addon-actors/addon-operator/actors/step"
	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/values"
)

// discovery is one run of step 4: the candidates (enabled by their flags)
// ask their enabled scripts one by one, in module order.
type discovery struct {
	candidates []string
	next       int
	enabled    []string
	dynamic    map[string]bool // the global hooks' flags it read
	byScript   map[string]bool // candidates their enabled script disabled
	// unmet are the candidates their unmet requirements disabled (the
	// final say, before their enabled script is asked), with the reasons.
	unmet map[string][]string
	defs  map[string]layout.Definition
}

// discover checks the flags of every module, then asks the first
// candidate's enabled script.
func (c *Core) discover(env Env) []Effect {
	c.sit.held = layout.HeldByRequirements(c.modules, c.sit.self)
	d := &discovery{dynamic: env.Dynamic, byScript: map[string]bool{}, unmet: map[string][]string{},
		defs: definitions(c.modules)}
	for _, def := range RunOrder(c.modules) {
		if c.sit.skipped(def.Names.Name) {
			continue
		}
		layers := append(def.StaticEnabled(), c.config.Enabled, env.Dynamic)
		if values.EnabledByLayers(def.Names.ValuesKey, layers...) {
			d.candidates = append(d.candidates, def.Names.Name)
		}
	}
	c.disc = d
	return c.askNext(nil)
}

// askNext asks the next candidate that its requirements do not disable,
// or lists the releases when none is left.
func (c *Core) askNext(out []Effect) []Effect {
	d := c.disc
	for ; d.next < len(d.candidates); d.next++ {
		name := d.candidates[d.next]
		unmet := layout.UnmetAmong(d.defs, name, d.enabled, c.opts.KubeVersion)
		if len(unmet) == 0 {
			return append(out, CheckEnabled{Module: name, EnabledBefore: slices.Clone(d.enabled)})
		}
		d.unmet[name] = unmet
		out = append(out, Log(step.At(slog.LevelInfo, "module disabled: unmet requirements", "module", name, "unmet", unmet)))
	}
	return append(out, ListReleases{})
}

func (c *Core) enabledAnswered(msg messages.EnabledChecked) []Effect {
	d := c.disc
	if d == nil || d.next >= len(d.candidates) || d.candidates[d.next] != msg.Module {
		return nil
	}
	switch {
	case msg.Unavailable:
		c.sit.failed[messages.ModuleOwner(msg.Module)] = failedToStart
	case msg.Err != "":
		c.disc = nil
		return append(c.holdEvents(true), c.finish(messages.TaskDone{Err: fmt.Sprintf("discover modules: %s", msg.Err)}))
	case msg.Enabled:
		d.enabled = append(d.enabled, msg.Module)
	default:
		d.byScript[msg.Module] = true
	}
	d.next++
	return c.askNext(nil)
}

// RunOrder is defs (in module order) in requirement order: the order
// discovery decides the modules in and their runs go one by one, every
// module after those it requires, the others by weight; defs with a
// cycle (refused before they get here) stay in module order.
func RunOrder(defs []layout.Definition) []layout.Definition {
	ordered, err := layout.RequirementOrder(defs)
	if err != nil {
		return defs
	}
	return ordered
}

// releasesListed ends discovery: module runs for the enabled modules,
// deletes for the disabled ones that were enabled or have a release,
// purges for owned releases without a module dir, then afterAll.
func (c *Core) releasesListed(msg ReleasesListed, env Env) []Effect {
	d := c.disc
	c.disc = nil
	if d == nil {
		return nil
	}
	if msg.Err != nil {
		return append(c.holdEvents(true), c.finish(messages.TaskDone{Err: fmt.Sprintf("discover modules: list releases: %v", msg.Err)}))
	}
	out := c.holdEvents(false)
	// Metrics first: whoever sees the board's enabled modules sees the
	// metrics of that discovery.
	out = append(out, Discovered{All: c.names(), Enabled: slices.Clone(d.enabled), Unmet: maps.Clone(d.unmet),
		Decisions: c.decisions(d, env)}, PublishEnabled{Enabled: slices.Clone(d.enabled)})
	p := planConverge(convergeInput{modules: c.modules, discovered: d, config: c.config, wasEnabled: c.enabled,
		skipped: c.sit.skipped, releases: msg, unloaded: c.sit.unloaded, ignore: c.opts.IgnoreRelease,
		parallel: c.opts.ParallelModuleRuns})
	for _, name := range p.disabled {
		out = append(out, ModuleOut{Name: name, How: OutDisabled})
	}
	for _, r := range p.kept {
		out = append(out, Log(step.At(slog.LevelWarn, "release kept: its module dir is there but cannot be loaded", "release", r)))
	}
	out = append(out, c.foreignStuck(msg.Stuck)...)
	c.enabled = p.enabled
	next := append(p.tasks,
		messages.Task{Kind: messages.TaskGlobalBinding, Owner: messages.OwnerGlobal, Binding: "afterAll"},
		messages.Task{Kind: messages.TaskConvergeDone, Owner: messages.OwnerOperator})
	for i := range next {
		next[i].Converge = true // a reload that supersedes this converge decides them again
	}
	return append(out, Log(step.At(slog.LevelInfo, "modules discovered", "enabled", d.enabled)), c.finish(messages.TaskDone{Next: next}))
}

// holdEvents holds the runs of schedule ticks and Kubernetes events back
// while discovery is failing (and counts the failure).
func (c *Core) holdEvents(hold bool) []Effect {
	if hold {
		return []Effect{Count{Metric: MetricDiscoverErrors}, HoldEvents{Hold: true}}
	}
	return []Effect{HoldEvents{Hold: false}}
}

// names are the names of all modules, in module order.
func (c *Core) names() []string {
	all := make([]string, 0, len(c.modules))
	for _, def := range c.modules {
		all = append(all, def.Names.Name)
	}
	return all
}
