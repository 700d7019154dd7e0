package moduleobject

import (
	"fmt"
	"slices"
	"strings"
)

// Event is a Kubernetes Event on a Module object: Type Normal or Warning,
// a CamelCase Reason and Action of a documented set, and a Note.
type Event struct {
	Type, Reason, Action, Note string
}

// Event types.
const (
	Normal  = "Normal"
	Warning = "Warning"
)

// Events are what a change of a module's state from old to now yields; old
// is nil the first time the module is seen, which yields only what
// happened since (a release installed, a run failed). A healthy periodic
// check changes nothing and yields none.
func Events(old *Input, now Input) []Event {
	prev := Input{}
	if old != nil {
		prev = *old
	}
	var out []Event
	out = append(out, runEvents(prev, now)...)
	out = append(out, enabledEvents(old, now)...)
	out = append(out, releaseEvents(prev, now)...)
	out = append(out, driftEvents(prev, now)...)
	if len(now.Unmet) > 0 && !slices.Equal(prev.Unmet, now.Unmet) {
		out = append(out, Event{Type: Warning, Reason: "RequirementsUnmet", Action: "Disable",
			Note: "requirements unmet: " + strings.Join(now.Unmet, "; ")})
	}
	return out
}

// sameRun: a and b are the same run, in the same state.
func sameRun(a, b *Run) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Started.Equal(b.Started) && a.Ended.Equal(b.Ended) && a.Err == b.Err
}

func runEvents(prev, now Input) []Event {
	if now.Run == nil || now.running() || sameRun(prev.Run, now.Run) {
		return nil
	}
	if now.failed() {
		if prev.WaitingReady != "" {
			return []Event{{Type: Warning, Reason: "ReadinessTimeout", Action: now.Run.Kind,
				Note: FirstLine(now.Run.Err)}}
		}
		return []Event{{Type: Warning, Reason: "RunFailed", Action: now.Run.Kind, Note: FirstLine(now.Run.Err)}}
	}
	if prev.failed() || prev.Retry != nil {
		return []Event{{Type: Normal, Reason: "Recovered", Action: now.Run.Kind,
			Note: fmt.Sprintf("%s succeeded after failures", now.Run.Kind)}}
	}
	return nil
}

// enabledEvents: a change of the enabled decision, not its first one.
func enabledEvents(old *Input, now Input) []Event {
	if old == nil || !old.Decided || !now.Decided || old.Enabled == now.Enabled || now.Global {
		return nil
	}
	if now.Enabled {
		return []Event{{Type: Normal, Reason: "Enabled", Action: "Enable", Note: "enabled by the " + layerName(now.EnabledBy)}}
	}
	return []Event{{Type: Normal, Reason: "Disabled", Action: "Disable", Note: "disabled by the " + layerName(now.EnabledBy)}}
}

func releaseEvents(prev, now Input) []Event {
	r := now.Release
	if r.At.IsZero() || r.At.Equal(prev.Release.At) {
		if prev.Release.Revision > 0 && r.Revision == 0 {
			return []Event{{Type: Normal, Reason: "ReleaseUninstalled", Action: "Uninstall",
				Note: "release " + prev.Release.Name + " uninstalled"}}
		}
		return nil
	}
	switch r.Action {
	case "installed":
		return []Event{{Type: Normal, Reason: "ReleaseInstalled", Action: "Install",
			Note: fmt.Sprintf("release %s installed, revision %d", r.Name, r.Revision)}}
	case "upgraded":
		return []Event{{Type: Normal, Reason: "ReleaseUpgraded", Action: "Upgrade",
			Note: fmt.Sprintf("release %s upgraded to revision %d", r.Name, r.Revision)}}
	}
	return nil
}

func driftEvents(prev, now Input) []Event {
	var out []Event
	switch {
	case now.Drifted > 0 && prev.Drifted == 0:
		out = append(out, Event{Type: Warning, Reason: "DriftDetected", Action: "CheckDrift",
			Note: fmt.Sprintf("%d object(s) of the release differ from its manifest", now.Drifted)})
	case now.Drifted == 0 && prev.Drifted > 0, now.Restores > prev.Restores:
		out = append(out, Event{Type: Normal, Reason: "DriftRestored", Action: "RestoreDrift",
			Note: "the release's objects hold what its manifest sets again"})
	}
	if now.GivenUp > prev.GivenUp {
		out = append(out, Event{Type: Warning, Reason: "DriftRestoreGivenUp", Action: "RestoreDrift",
			Note: "another writer sets drifted fields back after each restore; restores given up"})
	}
	return out
}
