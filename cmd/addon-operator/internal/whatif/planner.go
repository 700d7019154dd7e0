package whatif

import (
	"context"
	"fmt"
	"log/slog"
	"slices"

	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/chartrun"
	"github.com/addon-actors/addon-operator/hookexec"
	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/moduleconfig"
	"github.com/addon-actors/addon-operator/moduleconfig/conversion"
	"github.com/addon-actors/addon-operator/values"
	"github.com/addon-actors/addon-operator/values/configmap"
	"github.com/addon-actors/addon-operator/values/mask"
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
	Board         board.Reader
	Scan          func() ([]layout.Definition, []error)
	Common        values.Sections // $MODULES_DIR/values.yaml
	GlobalSchemas values.Schemas  // nil: none
	// GlobalConversions are the global settings' conversions
	// ($GLOBAL_HOOKS_DIR/openapi/conversions).
	GlobalConversions conversion.Chain
	Helm              Helm
	Enabled           EnabledRunner
	// LiveData reads the ConfigMap's data now (nil data: it is missing).
	LiveData      func(ctx context.Context) (map[string]string, error)
	IgnoreRelease string
	// KubeVersion is the apiserver's version, for module.yaml's
	// requirements.kubernetes.
	KubeVersion string
	// ParallelModuleRuns is the operator's: its runs of one weight are
	// one ParallelModuleRun, as the operator queues them.
	ParallelModuleRuns int
	Log                *slog.Logger
	// Secrets read the values a candidate ModuleConfig's settingsFrom
	// names; nil: they are unknown (a warning; the settings are checked
	// without them).
	Secrets func(ctx context.Context) moduleconfig.SecretValues
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
	data, fromSecrets := p.withModuleConfigs(ctx, data, req.ModuleConfigs, &out)
	if !out.Valid {
		return out, nil
	}
	sections, err := configmap.Parse(data)
	if err != nil {
		out.Valid = false
		out.Errors = append(out.Errors, Problem{Error: fmt.Sprintf("ConfigMap: %v", err)})
		return out, nil
	}
	defs, scanErrs := p.opts.Scan()
	c := &candidate{planner: p, sections: sections, plan: &out, fromSecrets: fromSecrets}
	c.global()
	tasks, err := c.discover(ctx, defs, scanErrs)
	if err != nil {
		return Plan{}, err
	}
	if err := c.converge(ctx, tasks); err != nil {
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
	defs     map[string]layout.Definition
	// fromSecrets are the paths the request's ModuleConfigs set from
	// Secrets, by module: masked as password settings are.
	fromSecrets map[string]mask.Paths
}

func (c *candidate) invalid(key string, err error) {
	c.plan.Valid = false
	c.plan.Errors = append(c.plan.Errors, Problem{Key: key, Error: err.Error()})
}

// converge fills in the values and release diff of each module run and
// delete the converge would queue (a ParallelModuleRun's runs in run
// order, numbered by their group), and the purges.
func (c *candidate) converge(ctx context.Context, tasks []messages.Task) error {
	c.toggles(c.planner.opts.Board.EnabledModules())
	for _, q := range runsOneByOne(tasks) {
		switch t := q.Task; t.Kind {
		case messages.TaskModuleRun:
			m, err := c.run(ctx, t.Module)
			if err != nil {
				return err
			}
			m.Group = q.group
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

// queued is a task the converge would queue; group numbers (from 1) the
// ParallelModuleRun a module run is one of, 0 for none.
type queued struct {
	messages.Task
	group int
}

// runsOneByOne lists a ParallelModuleRun's module runs in its place, in
// run order, each with the group's number (in queue order).
func runsOneByOne(tasks []messages.Task) []queued {
	var out []queued
	group := 0
	for _, t := range tasks {
		if t.Kind != messages.TaskParallelModuleRun {
			out = append(out, queued{Task: t})
			continue
		}
		group++
		for _, m := range t.Modules {
			out = append(out, queued{Task: messages.NewModuleRun(m, t.Reason), group: group})
		}
	}
	return out
}

// toggles lists the modules that would become enabled; those that would
// become disabled come with their delete task's reason.
func (c *candidate) toggles(enabledNow []string) {
	for _, name := range c.plan.Enabled {
		if !slices.Contains(enabledNow, name) {
			c.plan.Enable = append(c.plan.Enable, Toggle{Module: name, Reason: "enabled by discovery", Webhooks: c.webhooks(name)})
		}
	}
}

// webhooks are the webhook bindings the module's hooks declare.
func (c *candidate) webhooks(module string) []board.WebhookState {
	st, _ := c.planner.opts.Board.Module(module)
	return st.Webhooks
}
