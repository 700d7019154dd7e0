package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/chartrun/drift"
	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/debugapi"
	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/httpapi"
	"github.com/addon-actors/addon-operator/forbidden"
)

// clock is how `module why` prints times of day.
const clock = "15:04:05.000"

// textWhy prints the chain of one module (`module why NAME`).
func textWhy(w io.Writer, body []byte) error {
	var why debugapi.Why
	if err := json.Unmarshal(body, &why); err != nil {
		return fmt.Errorf("module why: %w", err)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	st := why.State
	fmt.Fprintf(tw, "MODULE\t%s\n", why.Module)
	fmt.Fprintf(tw, "STATE\t%s\n", stateText(st, why.Enabled))
	fmt.Fprintf(tw, "WHY\t%s\n", why.Summary)
	writeEnabled(tw, why.Enabled)
	writeWaits(tw, why)
	writeRun(tw, st.Run)
	writeHelm(tw, st.Helm)
	if st.Remedied != "" {
		fmt.Fprintf(tw, "  remedied\t%s\n", oneLine(st.Remedied))
	}
	writeReadyWait(tw, st.Wait, why.At)
	writeDrift(tw, st.Drift, why.At)
	writeRetry(tw, why.Retry)
	writeWebhooks(tw, why.Webhooks)
	return tw.Flush()
}

// writeWebhooks prints the module's webhook bindings served now.
func writeWebhooks(w io.Writer, list []board.WebhookState) {
	for _, h := range list {
		state := "waiting for Synchronization"
		if h.Ready {
			state = "ready"
		}
		if h.Kept {
			state += "; kept after the disable: the CRD's stored objects need it"
		}
		fmt.Fprintf(w, "WEBHOOK\t%s %s (hook %s) at %s: %s\n", h.Kind, h.Name, h.Hook, h.Path, state)
	}
}

// writeDrift prints the release's objects that differ from its manifest:
// since when, which fields, and those no longer restored.
func writeDrift(w io.Writer, drifted []board.DriftState, now time.Time) {
	for _, d := range drifted {
		since := d.Since
		if t, err := time.Parse(time.RFC3339, d.Since); err == nil {
			since = fmt.Sprintf("%s (%s ago)", t.Local().Format("15:04:05"), now.Sub(t).Round(time.Second))
		}
		fmt.Fprintf(w, "\nDRIFT\t%s since %s\n", d.Object, since)
		for _, f := range d.Fields {
			fmt.Fprintf(w, "\t  %s\n", f)
		}
		if d.Restores > 0 {
			fmt.Fprintf(w, "\t  restored %d times, drifted again each time\n", d.Restores)
		}
		for _, g := range d.GivenUp {
			fmt.Fprintf(w, "\t  %s: restore given up (another writer sets it back); mark it in the chart with annotation %s\n",
				g, drift.IgnoreAnnotation)
		}
	}
}

// writeReadyWait prints every object a helm step waits for.
func writeReadyWait(w io.Writer, wait *board.WaitState, now time.Time) {
	if wait == nil {
		return
	}
	fmt.Fprintf(w, "\nREADY WAIT\tsince %s (%s)\n", wait.Since.Local().Format("15:04:05"), board.WaitedFor(wait.Since, now))
	for _, line := range wait.NotReady {
		fmt.Fprintf(w, "\t  %s\n", oneLine(line))
	}
}

// writeWaits prints what the module's run waits for in the converge in
// flight, and what last dropped or replaced a failing run of it.
func writeWaits(w io.Writer, why debugapi.Why) {
	for _, wait := range why.WaitingFor {
		err := "not run yet in this converge"
		if wait.Err != "" {
			err = "failing: " + oneLine(wait.Err)
		}
		fmt.Fprintf(w, "\nWAITING FOR\t%s: %s\n", wait.Module, err)
	}
	if s := why.Superseded; s != nil {
		fmt.Fprintf(w, "\nSUPERSEDED\t%s at %s: %s\n", oneLine(s.Task), s.At.Format(clock), oneLine(s.By))
	}
}

// stateText is the module's published state; a module enabled by
// discovery whose run has not completed yet says so.
func stateText(st board.ModuleState, d *board.EnabledDecision) string {
	parts := []string{"disabled"}
	switch {
	case st.Enabled:
		parts[0] = "enabled"
	case d != nil && d.Enabled:
		parts[0] = "enabled, no run completed since"
	}
	parts = append(parts, "phase "+st.Phase)
	if st.Revision > 0 {
		parts = append(parts, fmt.Sprintf("revision %d", st.Revision))
	}
	if st.Maintenance != "" {
		parts = append(parts, "maintenance "+st.Maintenance)
	}
	if st.DirError != "" {
		parts = append(parts, "dir error: "+short(st.DirError))
	}
	return strings.Join(parts, ", ")
}

func writeEnabled(w io.Writer, d *board.EnabledDecision) {
	if d == nil {
		fmt.Fprintf(w, "\nENABLED\tnot decided yet (no discovery has ended)\n")
		return
	}
	fmt.Fprintf(w, "\nENABLED\t%t: %s\n", d.Enabled, d.Reason)
	for _, l := range d.Layers {
		v := "-"
		if l.Value != nil {
			v = fmt.Sprint(*l.Value)
		}
		fmt.Fprintf(w, "  %s\t%s\t%s\n", l.Layer, l.Key, v)
	}
	fmt.Fprintf(w, "  enabled script\t\t%s\n", scriptText(d))
	for _, r := range d.Requires {
		fmt.Fprintf(w, "  requires\t%s\n", r)
	}
	for _, u := range d.Unmet {
		fmt.Fprintf(w, "  unmet\t%s\n", u)
	}
}

func scriptText(d *board.EnabledDecision) string {
	switch d.Script {
	case "":
		return "not run (the layers disable the module)"
	case "none":
		return "none"
	}
	return "said " + d.Script
}

func writeRun(w io.Writer, r *board.RunRecord) {
	if r == nil {
		fmt.Fprintf(w, "\nLAST RUN\tnone\n")
		return
	}
	outcome := "ok"
	switch {
	case r.Ended.IsZero():
		outcome = "running"
	case r.Err != "":
		outcome = "failed"
	}
	fmt.Fprintf(w, "\nLAST RUN\t%s (%s) at %s, %s: %s\n", r.Kind, httpapi.Dash(r.Reason), r.Started.Format(clock),
		took(r.Started, r.Ended), outcome)
	if r.Err != "" {
		fmt.Fprintf(w, "  error\t%s\n", oneLine(r.Err))
	}
	for _, d := range forbidden.All(r.Err) {
		fmt.Fprintf(w, "  forbidden\t%s\n", strings.TrimPrefix(d.String(), "forbidden: "))
	}
	for _, p := range r.Phases {
		fmt.Fprintf(w, "  %s\t%s\t%s\n", p.Phase, p.Start.Format(clock), took(p.Start, p.End))
	}
}

func oneLine(s string) string { return strings.ReplaceAll(strings.TrimSpace(s), "\n", " ") }

func took(start, end time.Time) string {
	if end.IsZero() {
		return "running"
	}
	return end.Sub(start).Round(time.Millisecond).String()
}

func writeHelm(w io.Writer, h *board.HelmRecord) {
	if h == nil {
		fmt.Fprintf(w, "\nHELM\tno helm step yet\n")
		return
	}
	fmt.Fprintf(w, "\nHELM\t%s at %s: %s (revision %d)\n", h.Action, h.At.Format(clock), h.Reason, h.Revision)
}

func writeRetry(w io.Writer, r *debugapi.Retry) {
	if r == nil {
		fmt.Fprintf(w, "\nRETRY\t-\n")
		return
	}
	task := r.Kind
	if r.Hook != "" {
		task += " " + r.Hook
	}
	when := "in " + r.In.Round(time.Second).String() + " (at " + r.NextRetry.Format(clock) + ")"
	if r.Running {
		when = "running now"
	}
	if r.Stalled {
		when = "none: stalled until something changes for the module"
	}
	fmt.Fprintf(w, "\nRETRY\t%s in queue %s, %d attempts, next %s\n  last error\t%s\n", task, r.Queue, r.Attempts, when,
		oneLine(r.LastError))
}

// textModulesWide is `module list -o wide`: the module list with the
// short WHY of each module.
func textModulesWide(w io.Writer, body []byte) error {
	var all []debugapi.Why
	if err := json.Unmarshal(body, &all); err != nil {
		return fmt.Errorf("module list: %w", err)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "MODULE\tENABLED\tMAINTENANCE\tPHASE\tLAST TASK\tTASKS\tREVISION\tWHY")
	for _, why := range all {
		moduleRow(tw, why.State, short(why.Summary))
	}
	return tw.Flush()
}
