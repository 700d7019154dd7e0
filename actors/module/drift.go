package module

import (
	"slices"
	"strings"
	"time"

	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/messages"
)

// Drift modes (layout.DriftModes).
const (
	DriftReport  = "report"
	DriftRestore = "restore"
	DriftOff     = "off"
)

// driftMaxRestores is how many times in a row a field is restored and
// found drifted again before it is given up: another writer owns it.
const driftMaxRestores = 3

// driftTracker is what a module knows of its release's drift between
// checks: since when each object drifts, which fields, how often each was
// restored (the worker said so) and came back. It decides; the actor logs,
// counts and restores.
type driftTracker struct {
	objects map[string]*driftedObject
}

type driftedObject struct {
	found    messages.DriftedObject
	since    time.Time
	reported string          // the fields last reported
	asked    map[string]bool // the paths whose restore was asked since the last check
	restored map[string]bool // of those, the paths the worker restored
	restores map[string]int  // per path: restores it came back from
	givenUp  map[string]bool
}

// driftStep is what a check's findings call for.
type driftStep struct {
	// Report are objects whose drift is new, changed, or back after a
	// restore: a WARN and a count each.
	Report []messages.DriftedObject
	// Restore are the objects and fields to put back (mode restore; given
	// up fields left out).
	Restore []messages.DriftedObject
	// GiveUp are "object field" pairs restored driftMaxRestores times that
	// came back each time: an ERROR each, and no more restores.
	GiveUp []givenUp
	// Cleared are the objects that no longer drift.
	Cleared []string
	// Restored and Failed are what the worker did of the restores asked
	// (a restore result): a WARN and a count each, and an ERROR with
	// RestoreErr for each failed. Only a restore done counts towards
	// giving up: one that failed (a PATCH that RBAC forbids) was never
	// undone by another writer.
	Restored, Failed []messages.DriftedObject
	RestoreErr       error
}

type givenUp struct {
	Object, Kind, Path string
}

// observe takes the drift a check found (all the release's drifted
// objects) under mode.
func (t *driftTracker) observe(now time.Time, found []messages.DriftedObject, mode string) driftStep {
	if t.objects == nil {
		t.objects = map[string]*driftedObject{}
	}
	var step driftStep
	seen := map[string]bool{}
	for _, f := range found {
		seen[f.Object] = true
		o := t.objects[f.Object]
		if o == nil {
			o = &driftedObject{since: now, restores: map[string]int{}, givenUp: map[string]bool{}}
			t.objects[f.Object] = o
		}
		t.observeObject(o, f, mode, &step)
	}
	for name := range t.objects {
		if !seen[name] {
			delete(t.objects, name)
			step.Cleared = append(step.Cleared, name)
		}
	}
	slices.Sort(step.Cleared)
	return step
}

// observeObject updates one object's record and adds what it calls for.
func (t *driftTracker) observeObject(o *driftedObject, f messages.DriftedObject, mode string, step *driftStep) {
	paths := map[string]bool{}
	for _, field := range f.Fields {
		paths[field.Path] = true
		if o.restored[field.Path] {
			o.restores[field.Path]++
		}
	}
	for path := range o.restores {
		if !paths[path] { // restored and stayed so
			delete(o.restores, path)
			delete(o.givenUp, path)
		}
	}
	sig := fieldsSignature(f.Fields)
	if sig != o.reported || len(o.restored) > 0 {
		step.Report = append(step.Report, f)
		o.reported = sig
	}
	o.found, o.asked, o.restored = f, map[string]bool{}, map[string]bool{}
	if mode != DriftRestore {
		return
	}
	restore := f
	restore.Fields = nil
	for _, field := range f.Fields {
		switch {
		case o.givenUp[field.Path]:
		case o.restores[field.Path] >= driftMaxRestores:
			o.givenUp[field.Path] = true
			step.GiveUp = append(step.GiveUp, givenUp{Object: f.Object, Kind: f.Kind, Path: field.Path})
		default:
			restore.Fields = append(restore.Fields, field)
			o.asked[field.Path] = true
		}
	}
	if len(restore.Fields) > 0 {
		step.Restore = append(step.Restore, restore)
	}
}

// restoreDone takes the worker's result of the restores asked: the fields
// of the objects restored count as restored at the next check; those of
// the others, as never restored.
func (t *driftTracker) restoreDone(asked []messages.DriftedObject, restored []string, err error) driftStep {
	step := driftStep{RestoreErr: err}
	for _, d := range asked {
		if !slices.Contains(restored, d.Object) {
			step.Failed = append(step.Failed, d)
			continue
		}
		step.Restored = append(step.Restored, d)
		if o := t.objects[d.Object]; o != nil {
			for _, f := range d.Fields {
				if o.asked[f.Path] {
					o.restored[f.Path] = true
				}
			}
		}
	}
	return step
}

// reset forgets everything: helm just wrote the release.
func (t *driftTracker) reset() []string {
	var cleared []string
	for name := range t.objects {
		cleared = append(cleared, name)
	}
	slices.Sort(cleared)
	t.objects = nil
	return cleared
}

// state is the drift as module why shows it, by object.
func (t *driftTracker) state() []board.DriftState {
	var out []board.DriftState
	for _, o := range t.objects {
		s := board.DriftState{Object: o.found.Object, Since: o.since.UTC().Format(time.RFC3339)}
		for _, f := range o.found.Fields {
			s.Fields = append(s.Fields, f.Path+": "+f.Shown)
			s.Restores = max(s.Restores, o.restores[f.Path])
			if o.givenUp[f.Path] {
				s.GivenUp = append(s.GivenUp, f.Path)
			}
		}
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b board.DriftState) int { return strings.Compare(a.Object, b.Object) })
	return out
}

func fieldsSignature(fields []messages.DriftField) string {
	parts := make([]string, len(fields))
	for i, f := range fields {
		parts[i] = f.Path + "=" + f.Shown
	}
	slices.Sort(parts)
	return strings.Join(parts, "\n")
}
