package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"text/tabwriter"

	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/debugapi"
	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/httpapi"
)

// historyCommand is `actors --history ACTOR`: the actor's flight recorder.
func historyCommand(actor string) debugCommand {
	return debugCommand{path: "/actors/history?actor=" + url.QueryEscape(actor), text: textHistory}
}

// textHistory prints the flight recorder, newest last, as a log reads.
func textHistory(w io.Writer, body []byte) error {
	var h debugapi.History
	if err := json.Unmarshal(body, &h); err != nil {
		return fmt.Errorf("actors --history: %w", err)
	}
	fmt.Fprintf(w, "ACTOR %s: last %d handled messages, newest last\n", h.Actor, len(h.Entries))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "TIME\tDURATION\tOUTCOME\tTYPE\tSUMMARY\tERROR")
	for _, e := range h.Entries {
		summary := e.Summary
		if summary == e.Type {
			summary = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", e.At.Format(clock), e.Duration, e.Outcome, e.Type,
			summary, httpapi.Dash(short(e.Error)))
	}
	return tw.Flush()
}
