package layout

import (
	"fmt"
	"sort"
	"strings"

	"github.com/Masterminds/semver/v3"
)

// Unmet checks r against the modules enabled so far (name -> that module's
// chart version; presence means enabled), whether a module of a name exists
// at all (known; nil takes every module to exist), and the apiserver's
// version (e.g. "v1.37.1", "v1.37.1+k3s1"). It returns one sentence per unmet
// requirement, worded as Deckhouse's (spec/REQUIREMENTS.md §2.3, §2.5), sorted;
// nil when all are met. An optional requirement is checked only while the
// required module is enabled.
func (r Requirements) Unmet(enabled map[string]string, known func(name string) bool, kubeVersion string) []string {
	var unmet []string
	for _, m := range r.Modules {
		if why := m.unmet(enabled, known); why != "" {
			unmet = append(unmet, why)
		}
	}
	if why := r.unmetKubernetes(kubeVersion); why != "" {
		unmet = append(unmet, why)
	}
	sort.Strings(unmet)
	return unmet
}

// unmet is why m is not met, "" when it is.
func (m ModuleRequirement) unmet(enabled map[string]string, known func(string) bool) string {
	version, on := enabled[m.Module]
	switch {
	case !on && m.Optional:
		return ""
	case !on && known != nil && !known(m.Module):
		return fmt.Sprintf("dependency '%s' not found", m.Module)
	case !on:
		return fmt.Sprintf("dependency '%s' is disabled", m.Module)
	}
	v, err := releaseVersion(version)
	if err != nil {
		return fmt.Sprintf("dependency '%s' has unparsable version: %s", m.Module, version)
	}
	c, err := semver.NewConstraint(m.Constraint)
	if err != nil {
		// Only a Requirements built by hand gets here: a loaded one was
		// checked when its module.yaml was read.
		return fmt.Sprintf("dependency '%s' has unparsable constraint '%s': %v", m.Module, m.Constraint, err)
	}
	if !c.Check(v) {
		return fmt.Sprintf("dependency '%s' not meet the version constraint: the '%s' version does not satisfy the '%s' constraint",
			m.Module, version, m.Constraint)
	}
	return ""
}

// unmetKubernetes is why the apiserver's version does not suit r, "" when
// it does or r has no say.
func (r Requirements) unmetKubernetes(kubeVersion string) string {
	if r.Kubernetes == "" {
		return ""
	}
	c, err := semver.NewConstraint(r.Kubernetes)
	if err != nil {
		return fmt.Sprintf("kubernetes constraint '%s' unparsable: %v", r.Kubernetes, err)
	}
	v, err := releaseVersion(kubeVersion)
	if err != nil {
		return fmt.Sprintf("kubernetes version %q unparsable: %v", kubeVersion, err)
	}
	if ok, reasons := c.Validate(v); !ok {
		return "current kubernetes version is not suitable: " + firstReason(reasons)
	}
	return ""
}

// releaseVersion parses a version without its pre-release and metadata, as
// Deckhouse checks it: a "v1.30.2-eks-1" or "v1.30.2+k3s1" apiserver is a
// 1.30.2, which a ">= 1.30" constraint would otherwise refuse as a
// pre-release.
func releaseVersion(text string) (*semver.Version, error) {
	v, err := semver.NewVersion(strings.TrimSpace(text))
	if err != nil {
		return nil, err
	}
	return semver.New(v.Major(), v.Minor(), v.Patch(), "", ""), nil
}

// firstReason is semver's first reason for a refusal, the one Deckhouse
// shows (an OR of constraints gives one per branch).
func firstReason(reasons []error) string {
	if len(reasons) == 0 {
		return "no reason given"
	}
	return reasons[0].Error()
}

// RequirementOrder returns defs (given in module order, i.e. weight order) in
// the order in which discovery must evaluate them and in which they run one
// by one: every module after every module it requires (optional ones
// included) that is among defs, so that "enabled so far" already holds its
// verdict; otherwise the given order is kept. It is Kahn's algorithm taking,
// each time, the earliest module in the given order whose required modules
// are all placed, so a module moves only as far as its requirements push it.
// Requirements naming a module not in defs (or the module itself) do not
// order anything. A cycle returns a *CycleError.
func RequirementOrder(defs []Definition) ([]Definition, error) {
	g := newRequirementGraph(defs)
	order, ok := g.stableOrder()
	if !ok {
		return nil, g.cycleError()
	}
	out := make([]Definition, len(order))
	for k, i := range order {
		out[k] = defs[i]
	}
	return out, nil
}

// CycleError is requirements that form one or more cycles: no module on one
// can be evaluated after all it requires.
type CycleError struct {
	// Modules are the modules on some cycle, sorted (not those that only
	// require a module on a cycle).
	Modules []string
	// Cycles are one cycle per group of modules that require each other,
	// each from its smallest name back to it: [a b c a] is a requires b,
	// b requires c, c requires a. Sorted by first name.
	Cycles [][]string
}

// Error reads "module requirements form a cycle: a -> b -> c -> a", naming
// every module involved when the cycles shown do not pass through all.
func (e *CycleError) Error() string {
	paths := make([]string, len(e.Cycles))
	shown := map[string]bool{}
	for i, c := range e.Cycles {
		paths[i] = strings.Join(c, " -> ")
		for _, m := range c {
			shown[m] = true
		}
	}
	noun := "a cycle"
	if len(e.Cycles) > 1 {
		noun = "cycles"
	}
	msg := fmt.Sprintf("module requirements form %s: %s", noun, strings.Join(paths, "; "))
	if len(shown) < len(e.Modules) {
		msg += fmt.Sprintf(" (modules on cycles: %s)", strings.Join(e.Modules, ", "))
	}
	return msg
}

// UnmetAmong checks the requirements of module name (one of defs) against
// the modules enabled so far among defs: what discovery and `plan` ask of
// each candidate, in RequirementOrder.
func UnmetAmong(defs map[string]Definition, name string, enabledSoFar []string, kubeVersion string) []string {
	req := defs[name].Requirements
	if req.Kubernetes == "" && len(req.Modules) == 0 {
		return nil
	}
	enabled := make(map[string]string, len(enabledSoFar))
	for _, m := range enabledSoFar {
		enabled[m] = defs[m].Version
	}
	known := func(m string) bool { _, ok := defs[m]; return ok }
	return req.Unmet(enabled, known, kubeVersion)
}

// HeldByRequirements maps each module of defs that requires (directly or
// through others, optional requirements included) a module that is left
// as it is (skipped: its dir cannot be seen, its hooks cannot start) to
// that module. Such a module is left as it is too: its requirement cannot
// be judged, and judging it unmet would delete its release for a mistake
// that can be undone (a dangling link). defs has no cycle.
func HeldByRequirements(defs []Definition, skipped func(name string) bool) map[string]string {
	ordered, err := RequirementOrder(defs)
	if err != nil {
		ordered = defs
	}
	held := map[string]string{}
	for _, d := range ordered {
		for _, r := range d.Requirements.Modules {
			switch {
			case skipped(r.Module):
				held[d.Names.Name] = r.Module
			case held[r.Module] != "":
				held[d.Names.Name] = held[r.Module]
			}
			if held[d.Names.Name] != "" {
				break
			}
		}
	}
	return held
}
