package whatif

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/addon-actors/addon-operator/actors/operator"
	"github.com/addon-actors/addon-operator/hookexec"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/values"
)

// discover is the operator's own discovery (operator.Core) with its inputs
// swapped: the candidate ConfigMap instead of the live one, the modules
// dirs as they are now, and what the operator published for the rest (the
// modules it enabled, those whose actor failed to start or whose dir it
// cannot see, the global hooks' flags). The core reads the dirs as every
// discovery after the first converge does, so it refuses a set whose
// requirements form a cycle as the operator does: the plan is invalid.
// Where the operator asks a module actor, the enabled script runs here
// with the candidate values; the releases are helm's. It returns the
// tasks the converge would queue.
func (c *candidate) discover(ctx context.Context, defs []layout.Definition, scanErrs []error) ([]messages.Task, error) {
	o := c.planner.opts
	core := operator.NewCore(operator.CoreOptions{KubeVersion: o.KubeVersion, IgnoreRelease: o.IgnoreRelease,
		ParallelModuleRuns: o.ParallelModuleRuns, Rescan: true, Ready: true,
		Failed: o.Board.FailedToStart(), Enabled: o.Board.EnabledModules(), Config: c.sections})
	env := operator.Env{Dynamic: o.Board.DynamicEnabled()}
	task := messages.Task{Kind: messages.TaskDiscover, Owner: messages.OwnerOperator, Reason: "plan"}
	pending := core.Step(operator.TaskAssigned{Assigned: hookrun.Assigned{Task: task}}, env)
	scanned := operator.ModulesScanned{Defs: defs, Errs: scanErrs, Unseen: o.Board.DirErrors()}
	var next []messages.Task
	for len(pending) > 0 {
		e := pending[0]
		pending = pending[1:]
		if refused := modulesRefused(e); refused != "" {
			c.invalid("modules dirs", errors.New(refused))
			return nil, nil
		}
		answer, err := c.answer(ctx, core, e, scanned)
		if err != nil {
			return nil, err
		}
		if f, ok := e.(operator.FinishTask); ok {
			next = f.Done.Next
		}
		if answer != nil {
			pending = append(core.Step(answer, env), pending...)
		}
	}
	return next, nil
}

// answer is what the operator's lifecycle or a module actor would answer
// the core's effect with (nil: nothing); a discovery's result goes into
// the plan.
func (c *candidate) answer(ctx context.Context, core *operator.Core, e operator.Effect, scanned operator.ModulesScanned) (operator.Event, error) {
	switch e := e.(type) {
	case operator.ScanModules:
		return scanned, nil
	case operator.SpawnModules:
		return operator.ModulesSpawned{}, nil
	case operator.TellReaders: // the modules are in force: discovery asks next
		c.candidateValues(core)
	case operator.CheckEnabled:
		enabled, err := c.script(ctx, c.defs[e.Module], e.EnabledBefore)
		if err != nil {
			return nil, err
		}
		return operator.EnabledAnswered{Msg: messages.EnabledChecked{Module: e.Module, Enabled: enabled}}, nil
	case operator.ListReleases:
		names, err := c.planner.opts.Helm.ReleaseNames(ctx)
		if err != nil {
			return nil, fmt.Errorf("list releases: %w", err)
		}
		return operator.ReleasesListed{Owned: names.Owned, All: names.All}, nil
	case operator.Discovered:
		c.plan.Enabled = append(c.plan.Enabled, e.Enabled...)
		if len(e.Unmet) > 0 {
			c.plan.Unmet = e.Unmet
		}
	}
	return nil, nil
}

// modulesRefused is why the core refused the modules dirs (a requirements
// cycle), as it publishes it; "" when e does not say so.
func modulesRefused(e operator.Effect) string {
	if p, ok := e.(operator.PublishConverge); ok {
		return p.State.ModulesError
	}
	return ""
}

// candidateValues builds the candidate values of every module discovery
// does not leave as it is, in run order.
func (c *candidate) candidateValues(core *operator.Core) {
	c.modules, c.defs = map[string]values.Snapshot{}, map[string]layout.Definition{}
	for _, def := range operator.RunOrder(core.Modules()) {
		c.defs[def.Names.Name] = def
		if core.LeftOut(def.Names.Name) == "" {
			c.modules[def.Names.Name] = c.module(def)
		}
	}
}

// script runs the module's enabled script as the module actor does, with
// its own temp files and the modules enabled before it; a module without
// one is enabled.
func (c *candidate) script(ctx context.Context, def layout.Definition, enabledBefore []string) (bool, error) {
	script, ok, err := hookexec.EnabledScript(def.Dir)
	if err != nil || !ok {
		return err == nil, err
	}
	in := values.ModuleHookInput(c.globalV, c.modules[def.Names.Name], enabledBefore)
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
