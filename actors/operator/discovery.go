package operator

import (
	"fmt"
	"maps"
	"slices"

	"github.com/asynkron/protoactor-go/actor"

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
func (l *lifecycle) discover(ctx actor.Context) {
	dynamic := l.opts.Board.DynamicEnabled()
	l.held = layout.HeldByRequirements(l.opts.Modules, l.selfSkipped)
	d := &discovery{dynamic: dynamic, byScript: map[string]bool{}, unmet: map[string][]string{},
		defs: definitions(l.opts.Modules)}
	for _, def := range l.runOrder() {
		if l.skipped(def.Names.Name) {
			continue
		}
		layers := append(def.StaticEnabled(), l.config.Enabled, dynamic)
		if values.EnabledByLayers(def.Names.ValuesKey, layers...) {
			d.candidates = append(d.candidates, def.Names.Name)
		}
	}
	l.disc = d
	l.askNext(ctx)
}

func (l *lifecycle) askNext(ctx actor.Context) {
	d := l.disc
	if d.next >= len(d.candidates) {
		ctx.Request(l.io, listReleases{})
		return
	}
	name := d.candidates[d.next]
	if unmet := l.unmetRequirements(d, name); len(unmet) > 0 {
		d.unmet[name] = unmet
		l.opts.Log.Info("module disabled: unmet requirements", "module", name, "unmet", unmet)
		d.next++
		l.askNext(ctx)
		return
	}
	ctx.Request(l.children.PID(messages.ModuleOwner(name)), messages.CheckEnabled{EnabledBefore: slices.Clone(d.enabled)})
}

func (l *lifecycle) handleEnabledChecked(ctx actor.Context, msg messages.EnabledChecked) {
	d := l.disc
	if d == nil || d.next >= len(d.candidates) || d.candidates[d.next] != msg.Module {
		return
	}
	if msg.Unavailable {
		l.failed[messages.ModuleOwner(msg.Module)] = true
		d.next++
		l.askNext(ctx)
		return
	}
	if msg.Err != "" {
		l.disc = nil
		l.holdEvents(ctx, true)
		l.done(ctx, messages.TaskDone{Err: fmt.Sprintf("discover modules: %s", msg.Err)})
		return
	}
	if msg.Enabled {
		d.enabled = append(d.enabled, msg.Module)
	} else {
		d.byScript[msg.Module] = true
	}
	d.next++
	l.askNext(ctx)
}

// unmetRequirements checks a candidate's requirements against the
// modules this discovery has enabled so far (those it requires come
// first: runOrder).
func (l *lifecycle) unmetRequirements(d *discovery, name string) []string {
	return layout.UnmetAmong(d.defs, name, d.enabled, l.opts.KubeVersion)
}

// runOrder is the modules in the order discovery decides them and their
// runs go one by one: every module after those it requires, the others by
// weight. The set has no cycle (refused at start-up and by every scan).
func (l *lifecycle) runOrder() []layout.Definition {
	return RunOrder(l.opts.Modules)
}

// RunOrder is defs (in module order) in requirement order; defs with a
// cycle (refused before they get here) stay in module order.
func RunOrder(defs []layout.Definition) []layout.Definition {
	ordered, err := layout.RequirementOrder(defs)
	if err != nil {
		return defs
	}
	return ordered
}

// handleReleasesListed ends discovery: module runs for the enabled modules,
// deletes for the disabled ones that were enabled or have a release, purges
// for owned releases without a module dir, then afterAll.
func (l *lifecycle) handleReleasesListed(ctx actor.Context, msg releasesListed) {
	d := l.disc
	l.disc = nil
	if d == nil {
		return
	}
	if msg.Err != nil {
		l.holdEvents(ctx, true)
		l.done(ctx, messages.TaskDone{Err: fmt.Sprintf("discover modules: list releases: %v", msg.Err)})
		return
	}
	l.holdEvents(ctx, false)
	// Metrics first: whoever sees the board's enabled modules sees the
	// metrics of that discovery.
	l.tellDiscovered(d.enabled, d.unmet)
	l.publishDecisions(d)
	l.opts.Board.SetEnabledModules(d.enabled)
	next := l.moduleTasks(ctx, d, msg)
	next = append(next,
		messages.Task{Kind: messages.TaskGlobalBinding, Owner: messages.OwnerGlobal, Binding: "afterAll"},
		messages.Task{Kind: messages.TaskConvergeDone, Owner: messages.OwnerOperator})
	for i := range next {
		next[i].Converge = true // a reload that supersedes this converge decides them again
	}
	l.opts.Log.Info("modules discovered", "enabled", d.enabled)
	l.done(ctx, messages.TaskDone{Next: next})
}

func (l *lifecycle) moduleTasks(ctx actor.Context, d *discovery, releases releasesListed) []messages.Task {
	p := planConverge(convergeInput{modules: l.opts.Modules, discovered: d, config: l.config, wasEnabled: l.enabled,
		skipped: l.skipped, releases: releases, unloaded: l.unloaded, ignore: l.opts.IgnoreRelease,
		parallel: l.opts.ParallelModuleRuns})
	for _, name := range p.disabled {
		ctx.Send(l.children.PID(messages.ModuleOwner(name)), messages.ModuleDisabled{})
	}
	for _, r := range p.kept {
		l.opts.Log.Warn("release kept: its module dir is there but cannot be loaded", "release", r)
	}
	l.enabled = p.enabled
	return p.tasks
}

// holdEvents holds the runs of schedule ticks and Kubernetes events back
// while discovery is failing (and counts the failure).
func (l *lifecycle) holdEvents(ctx actor.Context, hold bool) {
	if hold && l.opts.DiscoverErrors != nil {
		l.opts.DiscoverErrors.Inc()
	}
	if pid := l.children.PID(ChildQueue); pid != nil {
		ctx.Send(pid, messages.HoldEvents{Hold: hold})
	}
}

// tellDiscovered hands the modules and the enabled ones to
// LifecycleOptions.Discovered.
func (l *lifecycle) tellDiscovered(enabled []string, unmet map[string][]string) {
	if l.opts.Unmet != nil {
		l.opts.Unmet(maps.Clone(unmet))
	}
	if l.opts.Discovered == nil {
		return
	}
	all := make([]string, 0, len(l.opts.Modules))
	for _, def := range l.opts.Modules {
		all = append(all, def.Names.Name)
	}
	l.opts.Discovered(all, slices.Clone(enabled))
}
