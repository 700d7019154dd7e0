package debugapi

import (
	"fmt"
	"strings"
	"time"

	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/messages"
)

// Why is the chain that decided a module's state, as its owners recorded
// it (/modules/NAME/why): the operator's enabled decision, the module
// actor's last run and helm step, the queue's retry of its failing task.
type Why struct {
	Module  string                 `json:"module"`
	Summary string                 `json:"summary"`
	State   board.ModuleState      `json:"state"`
	Enabled *board.EnabledDecision `json:"enabled,omitempty"`
	Retry   *Retry                 `json:"retry,omitempty"`
	// WaitingFor are the modules this module's run waits for in the
	// converge in flight (its requirements, or the lower weight), with
	// their failing runs' errors.
	WaitingFor []Wait `json:"waitingFor,omitempty"`
	// Superseded is what last dropped or replaced a failing run of the
	// module, and why.
	Superseded *board.Superseded `json:"superseded,omitempty"`
	// Webhooks are the module's webhook bindings served now.
	Webhooks []board.WebhookState `json:"webhooks,omitempty"`
	At       time.Time            `json:"at"`
}

// Wait is a module another one waits for, and its run's error while it
// is failing.
type Wait struct {
	Module string `json:"module"`
	Err    string `json:"err,omitempty"`
}

// Retry is a module's task that failed and waits at the head of its queue.
type Retry struct {
	Queue     string    `json:"queue"`
	Kind      string    `json:"kind"`
	Hook      string    `json:"hook,omitempty"`
	Attempts  int       `json:"attempts"`
	LastError string    `json:"lastError"`
	NextRetry time.Time `json:"nextRetry,omitzero"`
	// Running: the retry is running now.
	Running bool `json:"running,omitempty"`
	// Stalled: no retry comes until something changes for the module.
	Stalled bool `json:"stalled,omitempty"`
	// In is the time left until NextRetry when the chain was read.
	In time.Duration `json:"in"`
}

// WhyInput is what the chain of one module is assembled from: the board's
// records, read once.
type WhyInput struct {
	State    board.ModuleState
	Decision *board.EnabledDecision
	DirError string
	Queues   messages.QueueSnapshot
	Converge board.ConvergeState
	Webhooks []board.WebhookState
	Now      time.Time
}

// AssembleWhy joins a module's published records into its chain; it
// decides nothing the owners did not.
func AssembleWhy(in WhyInput) Why {
	st := in.State
	if in.DirError != "" {
		st.DirError = in.DirError
	}
	w := Why{Module: st.Name, State: st, Enabled: in.Decision, Retry: retryOf(st.Name, in.Queues, in.Now),
		Webhooks: in.Webhooks, At: in.Now}
	for _, m := range in.Converge.Waits[st.Name] {
		wait := Wait{Module: m}
		if r := retryOf(m, in.Queues, in.Now); r != nil {
			wait.Err = r.LastError
		}
		w.WaitingFor = append(w.WaitingFor, wait)
	}
	if s, ok := in.Converge.Superseded[st.Name]; ok {
		w.Superseded = &s
	}
	w.Summary = summary(w)
	return w
}

// retryOf finds the module's failed task waiting for its retry.
func retryOf(module string, snap messages.QueueSnapshot, now time.Time) *Retry {
	for _, q := range snap.Queues {
		for _, t := range q.Tasks {
			if t.Module != module || t.Attempts == 0 || t.LastError == "" {
				continue
			}
			r := &Retry{Queue: q.Name, Kind: string(t.Kind), Hook: t.Hook, Attempts: t.Attempts,
				LastError: t.LastError, NextRetry: t.NextRetry, Running: t.Running, Stalled: t.Stalled}
			if !t.NextRetry.IsZero() && t.NextRetry.After(now) {
				r.In = t.NextRetry.Sub(now)
			}
			return r
		}
	}
	return nil
}

// summary is the chain in a few words, most pressing first: a dir that
// cannot be seen, a helm step waiting for its workloads, a retry, a run in
// progress, being disabled, a failed run, maintenance, then what helm last
// did.
func summary(w Why) string {
	st, d := w.State, w.Enabled
	switch {
	case st.DirError != "":
		return "dir cannot be seen: " + oneLine(st.DirError)
	case w.Retry != nil && w.Retry.Stalled:
		return fmt.Sprintf("stalled after %d failed runs in a row (a change for the module runs it): %s",
			w.Retry.Attempts, oneLine(w.Retry.LastError))
	case st.Wait != nil:
		return withWaited(st.Wait.Text(), board.WaitedFor(st.Wait.Since, w.At))
	case w.Retry != nil && w.Retry.Running:
		return fmt.Sprintf("retry %d running: %s", w.Retry.Attempts+1, oneLine(w.Retry.LastError))
	case w.Retry != nil:
		return fmt.Sprintf("retrying in %s: %s", retryIn(w.Retry.In), oneLine(w.Retry.LastError))
	case len(w.WaitingFor) > 0:
		return waitingText(w.WaitingFor)
	case st.Run != nil && st.Run.Ended.IsZero():
		return fmt.Sprintf("running %s since %s", st.Run.Kind, st.Run.Started.Format("15:04:05"))
	case d != nil && !d.Enabled && d.Script == "false":
		return "disabled by enabled script"
	case d != nil && !d.Enabled:
		return oneLine(d.Reason)
	case st.Run != nil && st.Run.Err != "":
		return "last run failed: " + oneLine(st.Run.Err)
	case st.Maintenance != "":
		return "maintenance: " + st.Maintenance
	case len(st.Drift) > 0:
		return fmt.Sprintf("%d object(s) drifted from the manifest: %s", len(st.Drift), st.Drift[0].Object)
	case st.Helm != nil:
		return fmt.Sprintf("helm %s: %s", st.Helm.Action, oneLine(st.Helm.Reason))
	case d != nil:
		return oneLine(d.Reason)
	}
	return "not discovered yet"
}

// waitingText says what a module's run waits for: "waiting for x: its
// error" for a failing one, "waiting for y" for one still to run.
func waitingText(waits []Wait) string {
	parts := make([]string, 0, len(waits))
	for _, w := range waits {
		if w.Err != "" {
			parts = append(parts, fmt.Sprintf("waiting for %s: %s", w.Module, oneLine(w.Err)))
			continue
		}
		parts = append(parts, "waiting for "+w.Module)
	}
	return strings.Join(parts, "; ")
}

// withWaited appends how long to a wait's text: "..., 40s".
func withWaited(text, waited string) string {
	if waited == "" {
		return text
	}
	return text + ", " + waited
}

func retryIn(d time.Duration) string {
	if d <= 0 {
		return "0s"
	}
	return d.Round(time.Second).String()
}

func oneLine(s string) string { return strings.ReplaceAll(strings.TrimSpace(s), "\n", " ") }

// whyOf assembles the chain of one module from the board, false when the
// operator does not know it.
func whyOf(b board.Reader, name string, now time.Time) (Why, bool) {
	st, ok := b.Known(name)
	if !ok {
		return Why{}, false
	}
	in := WhyInput{State: st, DirError: st.DirError, Queues: b.Queues(), Converge: b.Converge(),
		Webhooks: b.Webhooks(name), Now: now}
	if d, ok := b.EnabledDecisions()[name]; ok {
		in.Decision = &d
	}
	return AssembleWhy(in), true
}

// whyAll is the chain of every module, by name.
func whyAll(b board.Reader, now time.Time) []Why {
	out := []Why{}
	for _, m := range b.KnownModules() {
		if w, ok := whyOf(b, m.Name, now); ok {
			out = append(out, w)
		}
	}
	return out
}
