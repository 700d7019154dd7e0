package whatif

import (
	"context"
	"fmt"

	"github.com/addon-actors/addon-operator/chartrun"
	"github.com/addon-actors/addon-operator/chartrun/manifestdiff"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/values"
)

// run is a module run: its values change, and its chart rendered with the
// candidate values against its deployed release. A chart that fails to
// render makes the plan invalid (the run would fail).
func (c *candidate) run(ctx context.Context, name string) (ModulePlan, error) {
	def := c.defs[name]
	next := c.modules[name]
	current, _ := c.planner.opts.Board.ModuleValues(name)
	secrets := c.secrets(name)
	m := ModulePlan{Name: name, Action: ActionRun,
		ValuesChange: valuesChange(def.Names.ValuesKey, current.Values, next.Values, c.passwords(name), secrets)}
	if !def.HasChart {
		return m, nil
	}
	deployed, ok, err := c.planner.opts.Helm.DeployedRelease(ctx, name)
	if err != nil {
		return m, fmt.Errorf("module %s: %w", name, err)
	}
	before := ""
	if ok {
		m.Revision, before = deployed.Revision, deployed.Manifest
	}
	m.Recovery = deployed.Recovery
	maintenance := c.sections.Maintenance[def.Names.ValuesKey]
	if maintenance {
		if m.Reason = maintenanceReason(def.Names.ValuesKey, deployed.Maintained); deployed.Maintained {
			return m, nil
		}
	}
	rendered, err := c.planner.opts.Helm.Render(ctx, name, def.Dir, values.HelmValues(c.globalV, next))
	if err == nil && maintenance {
		rendered, err = chartrun.LabelForMaintenance(rendered)
	}
	if err != nil {
		c.invalid(name, fmt.Errorf("render chart: %w", err))
		return m, nil
	}
	if m.Objects, err = manifestdiff.Compare(before, rendered, secrets); err != nil {
		c.invalid(name, fmt.Errorf("compare manifests: %w", err))
	}
	if st, ok := c.planner.opts.Board.Module(name); ok {
		m.Drift, m.Reason = st.Drift, withReason(m.Reason, stalledReason(st, m))
	}
	return m, nil
}

// maintenanceReason says what a run in maintenance mode does with the
// release: nothing once it was written in maintenance, else write it once
// more with its objects labelled.
func maintenanceReason(key string, maintained bool) string {
	if maintained {
		return "in maintenance (" + key + "Maintenance): the release is left as it is"
	}
	return "in maintenance (" + key + "Maintenance): the release is written once more, its objects labelled " +
		chartrun.LabelMaintenance + ", then left as it is"
}

// remove is a module delete: every object of its deployed release goes.
func (c *candidate) remove(ctx context.Context, t messages.Task) (ModulePlan, error) {
	m := ModulePlan{Name: t.Module, Action: ActionDelete, Reason: t.Reason}
	deployed, ok, err := c.planner.opts.Helm.DeployedRelease(ctx, t.Module)
	m.Recovery = deployed.RecoveryOnDelete
	if err != nil || !ok {
		return m, err
	}
	m.Revision = deployed.Revision
	if m.Objects, err = manifestdiff.Compare(deployed.Manifest, "", c.secrets(t.Module)); err != nil {
		c.invalid(t.Module, fmt.Errorf("read release manifest: %w", err))
	}
	return m, nil
}
