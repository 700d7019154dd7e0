package moduleobject

import (
	"fmt"
	"strings"
	"time"

	"github.com/addon-actors/addon-operator/hookexec"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Phase is a Module object's phase.
type Phase string

// The phases, in the order Compute looks for them.
const (
	Unseen                Phase = "Unseen"
	Disabled              Phase = "Disabled"
	Maintenance           Phase = "Maintenance"
	Stalled               Phase = "Stalled"
	Retrying              Phase = "Retrying"
	WaitingForReadiness   Phase = "WaitingForReadiness"
	Running               Phase = "Running"
	WaitingForRequirement Phase = "WaitingForRequirement"
	Pending               Phase = "Pending"
	Ready                 Phase = "Ready"
)

// Status is a Module object's status.
type Status struct {
	ObservedGeneration int64              `json:"observedGeneration"`
	Phase              Phase              `json:"phase"`
	Message            string             `json:"message,omitempty"`
	Conditions         []metav1.Condition `json:"conditions,omitempty"`
	Release            *Release           `json:"release,omitempty"`
	LastRun            *LastRun           `json:"lastRun,omitempty"`
	Attempts           int                `json:"attempts,omitempty"`
	NextRetry          *metav1.Time       `json:"nextRetry,omitempty"`
	// Error is the first line of a failing run's error, bounded.
	Error string `json:"error,omitempty"`
	// LastHandledReconcileAt and LastHandledResetAt are the values of the
	// reconcile-at and reset-at annotations last handled (as Flux's
	// HelmRelease echoes its requestedAt and resetAt).
	LastHandledReconcileAt string `json:"lastHandledReconcileAt,omitempty"`
	LastHandledResetAt     string `json:"lastHandledResetAt,omitempty"`
}

// LastRun is the module's last run: when it started, how long it took
// ("" while it runs) and how it ended (Succeeded, Failed, Running).
type LastRun struct {
	Kind     string      `json:"kind"`
	Start    metav1.Time `json:"start"`
	Duration string      `json:"duration,omitempty"`
	Result   string      `json:"result"`
}

// MaxError bounds Status.Error, in bytes.
const MaxError = 512

// Compute is the status of in for an object of generation gen at now,
// keeping old's lastTransitionTime of each condition whose status stays.
func Compute(in Input, old Status, gen int64, now time.Time) Status {
	phase, msg := phaseOf(in)
	st := Status{ObservedGeneration: gen, Phase: phase, Message: msg, LastRun: lastRun(in.Run)}
	if r := in.Release; r.Revision > 0 {
		st.Release = &Release{Name: r.Name, Revision: r.Revision, ChartVersion: r.ChartVersion}
	}
	if in.Retry != nil {
		st.Attempts = in.Retry.Attempts
		if !in.Retry.NextRetry.IsZero() {
			t := metav1.NewTime(in.Retry.NextRetry.Truncate(time.Second))
			st.NextRetry = &t
		}
	}
	if phase == Retrying || phase == Stalled {
		st.Error = errorOf(in)
	}
	st.Conditions = conditions(in, phase, old.Conditions, gen, now)
	return st
}

// phaseOf is the phase and a one-line message a person can act on.
func phaseOf(in Input) (Phase, string) {
	switch {
	case in.Unseen:
		return Unseen, "the module's dir cannot be seen: " + FirstLine(in.DirError)
	case !in.Global && in.Decided && !in.Enabled:
		return Disabled, disabledText(in)
	case in.Maintenance != "":
		return Maintenance, "maintenance " + in.Maintenance + ": helm does not run, its hooks do"
	case in.Stalled:
		return Stalled, "run failed and is held until something changes for the module: " + FirstLine(errorOf(in))
	case in.Retry != nil && !in.Retry.Running:
		return Retrying, retryText(*in.Retry)
	case in.WaitingReady != "":
		return WaitingForReadiness, in.WaitingReady
	case in.running():
		return Running, "running " + in.Run.Kind
	case len(in.WaitingFor) > 0:
		return WaitingForRequirement, "waiting for " + strings.Join(in.WaitingFor, ", ")
	case !in.Decided:
		return Pending, "not discovered yet"
	case in.Run == nil:
		return Pending, "waiting for its first run"
	case in.failed():
		return Retrying, "last run failed: " + FirstLine(in.Run.Err)
	}
	return Ready, readyText(in)
}

func disabledText(in Input) string {
	if len(in.Unmet) > 0 {
		return "disabled: requirements unmet: " + strings.Join(in.Unmet, "; ")
	}
	if in.EnabledBy == "" {
		return "disabled"
	}
	return "disabled by the " + in.EnabledBy
}

func retryText(r Retry) string {
	text := fmt.Sprintf("attempt %d failed: %s", r.Attempts, FirstLine(r.LastError))
	if !r.NextRetry.IsZero() {
		text += "; next retry at " + r.NextRetry.UTC().Format(time.TimeOnly)
	}
	return text
}

func readyText(in Input) string {
	switch {
	case in.Global:
		return "global hooks ran"
	case in.Release.Revision > 0:
		return fmt.Sprintf("release %s revision %d deployed", in.Release.Name, in.Release.Revision)
	}
	return "ran"
}

// errorOf is the failing run's error: the queue's last error, else the
// run's.
func errorOf(in Input) string {
	text := ""
	switch {
	case in.Retry != nil && in.Retry.LastError != "":
		text = in.Retry.LastError
	case in.Run != nil:
		text = in.Run.Err
	}
	return bounded(FirstLine(text), MaxError)
}

func lastRun(r *Run) *LastRun {
	if r == nil || r.Started.IsZero() {
		return nil
	}
	out := &LastRun{Kind: r.Kind, Start: metav1.NewTime(r.Started.Truncate(time.Second)), Result: "Succeeded"}
	switch {
	case r.Ended.IsZero():
		out.Result = "Running"
	case r.Err != "":
		out.Result = "Failed"
	}
	if !r.Ended.IsZero() {
		out.Duration = r.Ended.Sub(r.Started).Round(time.Millisecond).String()
	}
	return out
}

// FirstLine is s's first non-empty line, trimmed, without the hook stderr
// an error may carry (hookexec.PublicText): the objects and their Events
// are read by anyone who may list them, and hooks print values to stderr.
func FirstLine(s string) string {
	return strings.TrimSpace(hookexec.PublicText(strings.TrimLeft(s, " \t\r\n")))
}

// bounded cuts s to at most n bytes on a rune boundary, marking the cut.
func bounded(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n - len("…")
	for cut > 0 && !utf8Start(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }
