package app

import (
	"sort"
	"time"

	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/debugapi"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/moduleobject"
)

// This file is the one adapter from the board to the Module objects'
// inputs: it reads the facts `module why` reads (debugapi.AssembleWhy),
// and decides nothing of its own.

// moduleInputs reads one input per module the board knows, and the global
// hooks' (readyAt: when the first converge was seen done, zero before).
func moduleInputs(b *board.Board, versions map[string]string, readyAt, now time.Time) []moduleobject.Input {
	dirErrors, states, decisions := b.DirErrors(), b.Modules(), b.EnabledDecisions()
	names := make([]string, 0, len(states)+len(dirErrors))
	for name := range states {
		names = append(names, name)
	}
	for name := range dirErrors {
		if _, ok := states[name]; !ok {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	queues, converge := b.Queues(), b.Converge()
	out := []moduleobject.Input{globalInput(queues, readyAt)}
	for _, name := range names {
		st, ok := states[name]
		if !ok {
			st = board.ModuleState{Name: name, Phase: board.PhaseUnseen}
		}
		in := debugapi.WhyInput{State: st, DirError: dirErrors[name], Queues: queues, Converge: converge,
			Webhooks: b.Webhooks(name), Now: now}
		if d, ok := decisions[name]; ok {
			in.Decision = &d
		}
		out = append(out, inputOf(debugapi.AssembleWhy(in), versions[name]))
	}
	return out
}

func inputOf(w debugapi.Why, version string) moduleobject.Input {
	st := w.State
	in := moduleobject.Input{Name: w.Module, Unseen: st.DirError != "", DirError: st.DirError,
		Maintenance: st.Maintenance, Webhooks: len(w.Webhooks), Stalled: st.Stalled}
	if d := w.Enabled; d != nil {
		in.Decided, in.Enabled, in.EnabledBy, in.Unmet = true, d.Enabled, layerOf(*d), d.Unmet
	}
	if r := st.Run; r != nil {
		in.Run = &moduleobject.Run{Kind: r.Kind, Started: r.Started, Ended: r.Ended, Err: r.Err}
	}
	in.Release = moduleobject.Release{Name: w.Module, Revision: st.Revision, ChartVersion: version}
	if h := st.Helm; h != nil {
		in.Release.Action, in.Release.At = h.Action, h.At
	}
	if r := w.Retry; r != nil {
		in.Retry = &moduleobject.Retry{Attempts: r.Attempts, NextRetry: r.NextRetry, Running: r.Running,
			LastError: r.LastError}
	}
	for _, wait := range w.WaitingFor {
		in.WaitingFor = append(in.WaitingFor, wait.Module)
	}
	if st.Wait != nil {
		in.WaitingReady = st.Wait.Text()
	}
	for _, d := range st.Drift {
		in.Drifted++
		in.Restores += d.Restores
		in.GivenUp += len(d.GivenUp)
	}
	for _, h := range w.Webhooks {
		if h.Ready {
			in.WebhooksReady++
		}
	}
	return in
}

// layerOf is the layer that had the last say on the module's enabled
// state: its requirements, its enabled script, else the highest layer that
// mentions it.
func layerOf(d board.EnabledDecision) string {
	switch {
	case len(d.Unmet) > 0:
		return "requirements"
	case d.Script == "false":
		return "enabled script"
	}
	for i := len(d.Layers) - 1; i >= 0; i-- {
		if d.Layers[i].Value != nil {
			return d.Layers[i].Layer
		}
	}
	return ""
}

// globalInput is the global hooks': ready once the first converge is
// done, retrying while a global task fails.
func globalInput(queues messages.QueueSnapshot, readyAt time.Time) moduleobject.Input {
	in := moduleobject.Input{Name: moduleobject.GlobalName, Global: true, Decided: true, Enabled: true}
	if !readyAt.IsZero() {
		in.Run = &moduleobject.Run{Kind: "GlobalHooks", Ended: readyAt}
	}
	for _, q := range queues.Queues {
		for _, t := range q.Tasks {
			if t.Owner == messages.OwnerGlobal && t.Attempts > 0 && t.LastError != "" && in.Retry == nil {
				in.Retry = &moduleobject.Retry{Attempts: t.Attempts, NextRetry: t.NextRetry, Running: t.Running,
					LastError: t.LastError}
			}
		}
	}
	return in
}
