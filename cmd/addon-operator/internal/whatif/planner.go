package whatif

import (
	"context"
	"fmt"
	"log/slog"
	"slices"

	"github.com/addon-actors/addon-operator/actors/operator"
	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/chartrun"
	"github.com/addon-actors/addon-operator/hookexec"
	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/values"
	"github.com/addon-actors/addon-operator/values/configmap"
)

// Helm is what a plan reads of helm: it renders and reads, never writes.
type Helm interface {
	Render(ctx context.Context, release, chartDir string, values map[string]any) (string, error)
	DeployedRelease(ctx context.Context, name string) (chartrun.Deployed, bool, error)
	ReleaseNames(ctx context.Context) (chartrun.ReleaseNames, error)
}

// EnabledRunner runs an enabled script (hookexec.Runner does).
type EnabledRunner interface {
	RunEnabled(ctx context.Context, req hookexec.EnabledRequest) (hookexec.Result, error)
}

// Options are what a Planner reads: the operator's published state and
// its modules dirs, helm, and the live ConfigMap.
type Options struct {
	Board         *board.Board
	Scan          func() ([]layout.Definition, []error)
	Common        values.Sections // $MODULES_DIR/values.yaml
	GlobalSchemas values.Schemas  // nil: none
	Helm          Helm
	Enabled       EnabledRunner
	// LiveData reads the ConfigMap's data now (nil data: it is missing).
	LiveData      func(ctx context.Context) (map[string]string, error)
	IgnoreRelease string
	// KubeVersion is the apiserver's version, for module.yaml's
	// requirements.kubernetes.
	KubeVersion string
	Log         *slog.Logger
}

// Planner computes plans; it is safe for concurrent use.
type Planner struct{ opts Options }

// New returns a Planner.
func New(o Options) *Planner { return &Planner{opts: o} }

// Plan computes what applying the request's configuration would do. An
// invalid candidate is a Plan with Valid false; the error is for what
// stopped the plan itself (the cluster or a script could not be asked).
func (p *Planner) Plan(ctx context.Context, req Request) (Plan, error) {
	data := req.Data
	if data == nil {
		live, err := p.opts.LiveData(ctx)
		if err != nil {
			return Plan{}, fmt.Errorf("read the live ConfigMap: %w", err)
		}
		data = live
	}
	data, err := ApplySets(data, req.Set)
	if err != nil {
		return Plan{}, err
	}
	out := Plan{Valid: true, Note: HooksNote, Enabled: []string{}}
	sections, err := configmap.Parse(data)
	if err != nil {
		out.Valid = false
		out.Errors = append(out.Errors, Problem{Error: fmt.Sprintf("ConfigMap: %v", err)})
		return out, nil
	}
	defs, scanErrs := p.opts.Scan()
	c := &candidate{planner: p, sections: sections, plan: &out, unloaded: layout.Unloaded(scanErrs)}
	c.global()
	if err := c.discover(ctx, defs); err != nil {
		return Plan{}, err
	}
	if err := c.converge(ctx, defs, c.unloaded); err != nil {
		return Plan{}, err
	}
	out.Changed = out.changed()
	return out, nil
}

// candidate is one plan being computed.
type candidate struct {
	planner  *Planner
	sections values.Sections
	plan     *Plan
	globalV  values.Snapshot
	modules  map[string]values.Snapshot // candidate values of each module
	byScript map[string]bool
	unmet    map[string][]string
	defs     map[string]layout.Definition
	unloaded []string          // module dirs there but not loadable now
	held     map[string]string // modules that require one left as it is (layout.HeldByRequirements)
}

func (c *candidate) invalid(key string, err error) {
	c.plan.Valid = false
	c.plan.Errors = append(c.plan.Errors, Problem{Key: key, Error: err.Error()})
}

// converge decides runs, deletes and purges as the operator would, and
// fills in each module's values and release diff.
func (c *candidate) converge(ctx context.Context, defs []layout.Definition, unloaded []string) error {
	b := c.planner.opts.Board
	names, err := c.planner.opts.Helm.ReleaseNames(ctx)
	if err != nil {
		return err
	}
	was := map[string]bool{}
	for _, m := range b.EnabledModules() {
		was[m] = true
	}
	tasks := operator.PlanWhatIf(operator.WhatIf{Modules: defs, Enabled: c.plan.Enabled, ByScript: c.byScript, Unmet: c.unmet,
		Dynamic: b.DynamicEnabled(), Config: c.sections, WasEnabled: was, Skipped: c.skipped,
		Owned: names.Owned, All: names.All, Unloaded: unloaded, Ignore: c.planner.opts.IgnoreRelease})
	c.toggles(was)
	for _, t := range tasks {
		switch t.Kind {
		case messages.TaskModuleRun:
			m, err := c.run(ctx, t.Module)
			if err != nil {
				return err
			}
			c.plan.Modules = append(c.plan.Modules, m)
		case messages.TaskModuleDelete:
			m, err := c.remove(ctx, t)
			if err != nil {
				return err
			}
			c.plan.Modules = append(c.plan.Modules, m)
			c.plan.Disable = append(c.plan.Disable, Toggle{Module: t.Module, Reason: t.Reason, Webhooks: c.webhooks(t.Module)})
		case messages.TaskModulePurge:
			c.plan.Purges = append(c.plan.Purges, Toggle{Module: t.Module, Reason: t.Reason})
		}
	}
	return nil
}

// skipped are modules the operator leaves alone, as its discovery does: no
// actor (not loaded), an actor that failed to start (its hooks' --config),
// or a dir it cannot see now.
func (c *candidate) skipped(name string) bool {
	b := c.planner.opts.Board
	state, ok := b.Modules()[name]
	if !ok || state.Phase == phaseFailedStart {
		return true
	}
	return b.DirErrors()[name] != "" || c.held[name] != ""
}

// leftAsIs: a module whose dir is there but the operator leaves it as it
// is (its hooks failed to start, its dir cannot be seen or loaded); a
// module that requires it is held, as the operator's discovery does.
func (c *candidate) leftAsIs(name string) bool {
	b := c.planner.opts.Board
	if slices.Contains(c.unloaded, name) || b.DirErrors()[name] != "" {
		return true
	}
	state, ok := b.Modules()[name]
	return ok && state.Phase == phaseFailedStart
}

// phaseFailedStart is the phase a module actor publishes when it cannot
// start (actors/module: fail).
const phaseFailedStart = "failed"

// toggles lists the modules that would become enabled; those that would
// become disabled come with their delete task's reason.
func (c *candidate) toggles(was map[string]bool) {
	for _, name := range c.plan.Enabled {
		if !was[name] {
			c.plan.Enable = append(c.plan.Enable, Toggle{Module: name, Reason: "enabled by discovery", Webhooks: c.webhooks(name)})
		}
	}
}

// webhooks are the webhook bindings the module's hooks declare.
func (c *candidate) webhooks(module string) []board.WebhookState {
	st, _ := c.planner.opts.Board.Module(module)
	return st.Webhooks
}
