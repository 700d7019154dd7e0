package main

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/whatif"
)

// painter colours the summary when it goes to a terminal.
type painter bool

func (p painter) paint(code, s string) string {
	if !p {
		return s
	}
	return "\033[" + code + "m" + s + "\033[0m"
}

func (p painter) bold(s string) string  { return p.paint("1", s) }
func (p painter) red(s string) string   { return p.paint("31", s) }
func (p painter) green(s string) string { return p.paint("32", s) }
func (p painter) cyan(s string) string  { return p.paint("36", s) }

// textPlan prints the human summary of a plan.
func textPlan(w io.Writer, plan whatif.Plan, colour bool) error {
	p := painter(colour)
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s\n", p.bold("Enabled modules:"), orNone(strings.Join(plan.Enabled, ", ")))
	for _, t := range plan.Enable {
		fmt.Fprintf(&b, "  %s %s: %s\n", p.green("+ enable"), t.Module, t.Reason)
		writeToggleWebhooks(&b, t, "registered")
	}
	for _, t := range plan.Disable {
		fmt.Fprintf(&b, "  %s %s: %s\n", p.red("- disable"), t.Module, t.Reason)
		writeToggleWebhooks(&b, t, "removed")
	}
	for _, m := range slices.Sorted(maps.Keys(plan.Unmet)) {
		fmt.Fprintf(&b, "  %s %s: %s\n", p.red("unmet requirements"), m, strings.Join(plan.Unmet[m], "; "))
	}
	if plan.Global.Diff != "" {
		fmt.Fprintf(&b, "%s\n", p.bold("Global values change:"))
		writeDiff(&b, p, plan.Global.Diff, "  ")
	}
	for _, m := range plan.Modules {
		textModule(&b, p, m)
	}
	for _, t := range plan.Purges {
		fmt.Fprintf(&b, "%s %s: %s\n", p.red("purge"), t.Module, t.Reason)
	}
	for _, e := range plan.Errors {
		where := "ConfigMap"
		if e.Key != "" {
			where = "key " + e.Key
		}
		fmt.Fprintf(&b, "%s %s: %s\n", p.red("error:"), where, e.Error)
	}
	for _, warning := range plan.Warnings {
		fmt.Fprintf(&b, "%s %s\n", p.bold("warning:"), warning)
	}
	fmt.Fprintf(&b, "Note: %s.\n%s\n", plan.Note, p.bold(verdict(plan)))
	_, err := io.WriteString(w, b.String())
	return err
}

func textModule(b *strings.Builder, p painter, m whatif.ModulePlan) {
	head := fmt.Sprintf("module %s: %s", m.Name, m.Action)
	if m.Revision > 0 {
		head += fmt.Sprintf(" (release revision %d)", m.Revision)
	}
	var what []string
	if m.Recovery != "" {
		what = append(what, "stuck release: "+m.Recovery)
	}
	if m.Reason != "" {
		what = append(what, m.Reason)
	}
	if m.Diff != "" {
		what = append(what, "values change")
	}
	counts := map[string]int{}
	for _, o := range m.Objects {
		counts[string(o.Action)]++
	}
	for _, a := range []string{"added", "changed", "removed"} {
		if counts[a] > 0 {
			what = append(what, fmt.Sprintf("%d %s", counts[a], a))
		}
	}
	if len(m.Drift) > 0 {
		what = append(what, fmt.Sprintf("%d drifted", len(m.Drift)))
	}
	if len(what) == 0 {
		what = append(what, "no change")
	}
	fmt.Fprintf(b, "%s: %s\n", p.bold(head), strings.Join(what, ", "))
	if m.Diff != "" {
		writeDiff(b, p, m.Diff, "  ")
	}
	for _, o := range m.Objects {
		fmt.Fprintf(b, "  %s %s\n", o.Action, o.Object)
		writeDiff(b, p, o.Diff, "    ")
	}
	for _, d := range m.Drift {
		fmt.Fprintf(b, "  drifted %s (since %s), rendered → live:\n", d.Object, d.Since)
		for _, f := range d.Fields {
			fmt.Fprintf(b, "    %s\n", p.red(f))
		}
	}
}

// writeDiff indents a unified diff and colours its lines.
func writeDiff(b *strings.Builder, p painter, diff, indent string) {
	for _, line := range strings.Split(strings.TrimSuffix(diff, "\n"), "\n") {
		switch {
		case strings.HasPrefix(line, "+++"), strings.HasPrefix(line, "---"):
			line = p.bold(line)
		case strings.HasPrefix(line, "@@"):
			line = p.cyan(line)
		case strings.HasPrefix(line, "+"):
			line = p.green(line)
		case strings.HasPrefix(line, "-"):
			line = p.red(line)
		}
		b.WriteString(indent + line + "\n")
	}
}

func verdict(plan whatif.Plan) string {
	switch {
	case !plan.Valid:
		return "Invalid configuration: nothing would be applied."
	case plan.Changed:
		return "Changes would be applied."
	}
	return "No changes."
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// writeToggleWebhooks lists the webhooks an enable registers or a disable
// removes.
func writeToggleWebhooks(b *strings.Builder, t whatif.Toggle, what string) {
	for _, h := range t.Webhooks {
		fmt.Fprintf(b, "      webhook %s %s (hook %s) at %s: %s\n", h.Kind, h.Name, h.Hook, h.Path, what)
	}
}
