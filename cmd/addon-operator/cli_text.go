package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"text/tabwriter"
	"time"

	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/debugapi"
	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/httpapi"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/supervision/inspect"
)

func textQueues(w io.Writer, body []byte) error {
	var snap messages.QueueSnapshot
	if err := json.Unmarshal(body, &snap); err != nil {
		return err
	}
	// Now, not the snapshot's time: the queue publishes on changes only, and
	// a wait's or a retry's time goes on between them (the debug socket is
	// on this host, so the clocks agree).
	httpapi.WriteQueues(w, snap, time.Now())
	return nil
}

func textModules(w io.Writer, body []byte) error {
	var mods []board.ModuleState
	if err := json.Unmarshal(body, &mods); err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "MODULE\tENABLED\tMAINTENANCE\tPHASE\tLAST TASK\tTASKS\tREVISION\tLAST ERROR")
	for _, m := range mods {
		lastErr := m.LastError
		if m.DirError != "" {
			lastErr = m.DirError
		}
		if m.Stalled {
			lastErr = "stalled: " + lastErr
		}
		moduleRow(tw, m, httpapi.Dash(short(lastErr)))
	}
	return tw.Flush()
}

// moduleRow writes a module's row of `module list`, ending in last (its
// last error, or with -o wide its WHY).
func moduleRow(w io.Writer, m board.ModuleState, last string) {
	fmt.Fprintf(w, "%s\t%t\t%s\t%s\t%s\t%d\t%d\t%s\n", m.Name, m.Enabled, httpapi.Dash(m.Maintenance), m.Phase,
		httpapi.Dash(m.LastRun), m.Tasks, m.Revision, last)
}

// configNote says, under the module list, when the configuration in force
// is the last good one because the ConfigMap is missing.
func configNote(ctx context.Context, client *debugapi.Client, w io.Writer) error {
	st, err := debugapi.GetJSON[board.ConfigState](ctx, client, "/config")
	if err != nil {
		return err
	}
	if st.Missing {
		if _, err = fmt.Fprintf(w, "\nCONFIG: ConfigMap %s is missing since %s; the last good configuration stays in force until it exists again\n",
			st.ConfigMap, st.Since); err != nil {
			return err
		}
	}
	return modulesNote(ctx, client, w)
}

// modulesNote says, under the module list, when the modules dirs as they
// are now were refused (a cycle of requirements) and the last good set of
// modules stays in force.
func modulesNote(ctx context.Context, client *debugapi.Client, w io.Writer) error {
	st, err := debugapi.GetJSON[board.ConvergeState](ctx, client, "/converge")
	if err != nil {
		return err
	}
	if st.ModulesError != "" {
		_, err = fmt.Fprintf(w, "\nMODULES: %s; the last good set of modules stays in force\n", st.ModulesError)
	}
	return err
}

// textActors prints the inspector's table, the fullest mailboxes first.
func textActors(w io.Writer, body []byte) error {
	var actors []inspect.ActorInfo
	if err := json.Unmarshal(body, &actors); err != nil {
		return err
	}
	sort.SliceStable(actors, func(i, j int) bool { return actors[i].MailboxLength > actors[j].MailboxLength })
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ACTOR\tKIND\tMAILBOX\tHIGH\tPROCESSED\tHANDLING\tFOR\tRESTARTS\tBEHAVIOUR\tSTATE\tLAST ERROR")
	for _, a := range actors {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%s\t%s\t%d\t%s\t%s\t%s\n", a.Path, a.Kind, a.MailboxLength, a.HighWater,
			a.Processed, httpapi.Dash(a.Current), forText(a.CurrentFor), a.Restarts, httpapi.Dash(a.Behaviour), httpapi.Dash(a.Summary),
			httpapi.Dash(short(a.LastError)))
	}
	return tw.Flush()
}

func forText(d time.Duration) string {
	if d == 0 {
		return "-"
	}
	return d.Round(time.Millisecond).String()
}

// short is a table cell of the CLI: one line of at most 100 bytes.
func short(s string) string { return httpapi.Clip(s, 100) }
