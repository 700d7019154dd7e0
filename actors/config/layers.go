package config

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/addon-actors/addon-operator/moduleconfig"
	"github.com/addon-actors/addon-operator/values"
)

// layers decides what the ModuleConfigs make of the ConfigMap's data: each
// object validated (moduleconfig.Validate: converted to its latest
// version, checked as a ConfigMap section is), the valid ones laid over
// the data with moduleconfig.Overlay's precedence, an invalid one
// replaced by the last valid generation of the same object (the module
// keeps its last good values), and the status each object is to have.
// It is pure: the actor feeds it the objects and the data, and performs
// what it returns.
type layers struct {
	// accepted are the last valid objects by name, settings converted.
	accepted map[string]moduleconfig.ModuleConfig
	// counted is the invalid generation last counted, by name.
	counted map[string]int64
}

// layered is what layers.Lay decided.
type layered struct {
	// Data is the ConfigMap's data with the objects laid over it.
	Data map[string]string
	// Hidden names the ConfigMap keys the objects hide, for a WARN.
	Hidden []string
	// Status is each object's status, by name.
	Status map[string]moduleconfig.Status
	// Obsolete are the objects written at an older settings version.
	Obsolete []obsolete
	// NewlyInvalid are the objects whose generation is newly found not
	// valid, to count.
	NewlyInvalid []string
	// Warnings are Validate's, for the log.
	Warnings []string
	// Foreign are the objects that name no module of this operator.
	Foreign []string
}

// obsolete is one object written at an older settings version.
type obsolete struct {
	Module          string
	Version, Latest int
}

// Lay validates objects against target (the values of their settingsFrom
// read from secrets) and lays the accepted ones over
// data; now stamps new conditions. An object target has none for (no
// module dir of this operator holds it) is left out.
func (l *layers) Lay(data map[string]string, objects []moduleconfig.ModuleConfig,
	targets map[string]moduleconfig.Target, secrets moduleconfig.SecretValues, now time.Time) (layered, error) {
	if l.accepted == nil {
		l.accepted, l.counted = map[string]moduleconfig.ModuleConfig{}, map[string]int64{}
	}
	out := layered{Status: map[string]moduleconfig.Status{}}
	seen := map[string]bool{}
	for _, mc := range objects {
		name := mc.Metadata.Name
		t, ok := targets[name]
		if !ok {
			// No module of this operator's: another operator's object
			// (several may share a cluster), neither read nor answered.
			out.Foreign = append(out.Foreign, name)
			continue
		}
		seen[name] = true
		r := moduleconfig.ValidateFrom(mc, &t, secrets)
		out.Warnings = append(out.Warnings, r.Warnings...)
		if r.Err == nil {
			out.Status[name] = l.accept(mc, r, now)
			if r.Version < r.Latest {
				out.Obsolete = append(out.Obsolete, obsolete{Module: name, Version: r.Version, Latest: r.Latest})
			}
			continue
		}
		if l.counted[name] != mc.Metadata.Generation {
			l.counted[name] = mc.Metadata.Generation
			out.NewlyInvalid = append(out.NewlyInvalid, name)
		}
		out.Status[name] = l.refuse(mc, r.Err, now)
	}
	for name := range l.accepted {
		if !seen[name] {
			delete(l.accepted, name) // deleted: the module returns to its ConfigMap section
			delete(l.counted, name)
		}
	}
	accepted := slices.Collect(maps.Values(l.accepted))
	slices.SortFunc(accepted, func(a, b moduleconfig.ModuleConfig) int { return cmp.Compare(a.Metadata.Name, b.Metadata.Name) })
	converted, err := convertSections(data, targets, l.accepted)
	if err != nil {
		return out, err
	}
	out.Data, out.Hidden, err = moduleconfig.Overlay(converted, accepted)
	return out, err
}

// convertSections converts the ConfigMap sections of modules whose
// settings have versions, and that no accepted object configures: a
// ConfigMap carries no version, so its sections are at version 1
// (issue 44 item 4). A section that does not convert is an error naming
// its key: the ConfigMap is not valid.
func convertSections(data map[string]string, targets map[string]moduleconfig.Target,
	accepted map[string]moduleconfig.ModuleConfig) (map[string]string, error) {
	out := maps.Clone(data)
	for _, name := range slices.Sorted(maps.Keys(targets)) {
		t := targets[name]
		key, err := sectionKey(name)
		text, ok := data[key]
		if _, has := accepted[name]; err != nil || has || !ok || t.Conversions.Latest() <= 1 {
			continue
		}
		var section map[string]any
		if err := yaml.Unmarshal([]byte(text), &section); err != nil || section == nil {
			continue // not an object: the ConfigMap's own parse says why
		}
		settings, err := t.Conversions.Convert(1, section)
		if err != nil {
			return nil, fmt.Errorf("ConfigMap key %q (version 1, converted to %d): %w", key, t.Conversions.Latest(), err)
		}
		b, err := yaml.Marshal(settings)
		if err != nil {
			return nil, fmt.Errorf("ConfigMap key %q: %w", key, err)
		}
		out[key] = string(b)
	}
	return out, nil
}

// sectionKey is the ConfigMap key of a ModuleConfig's name: "global" for
// the global values, else its module's values key.
func sectionKey(name string) (string, error) {
	if name == moduleconfig.GlobalName {
		return values.GlobalKey, nil
	}
	names, err := values.NamesOf(name)
	return names.ValuesKey, err
}

// accept keeps the valid object, its settings converted, and says so.
func (l *layers) accept(mc moduleconfig.ModuleConfig, r moduleconfig.Result, now time.Time) moduleconfig.Status {
	mc.Spec.Settings = r.Settings
	l.accepted[mc.Metadata.Name] = mc
	delete(l.counted, mc.Metadata.Name)
	gen := mc.Metadata.Generation
	msg := "applied"
	if r.Version < r.Latest {
		msg = fmt.Sprintf("obsolete: spec.version %d is converted to %d on read; write the settings at version %d", r.Version, r.Latest, r.Latest)
	}
	return moduleconfig.Status{Version: strconv.Itoa(r.Version), Message: msg, Conditions: []moduleconfig.Condition{
		condition(moduleconfig.ConditionValid, true, "Valid", "the settings are valid", gen, now),
		condition(moduleconfig.ConditionApplied, true, "Applied", fmt.Sprintf("generation %d is in the module's values", gen), gen, now),
	}}
}

// refuse says why the object is not valid, and what the module keeps.
func (l *layers) refuse(mc moduleconfig.ModuleConfig, err error, now time.Time) moduleconfig.Status {
	gen := mc.Metadata.Generation
	keeps := "the module keeps its ConfigMap section (no generation of this object was valid)"
	applied := int64(0)
	if prev, ok := l.accepted[mc.Metadata.Name]; ok {
		applied = prev.Metadata.Generation
		keeps = fmt.Sprintf("the module keeps the settings of generation %d", applied)
	}
	return moduleconfig.Status{Message: "not valid: " + err.Error() + "; " + keeps, Conditions: []moduleconfig.Condition{
		condition(moduleconfig.ConditionValid, false, "NotValid", err.Error(), gen, now),
		condition(moduleconfig.ConditionApplied, false, "NotValid", keeps, applied, now),
	}}
}

func condition(kind string, ok bool, reason, msg string, gen int64, now time.Time) moduleconfig.Condition {
	st := metav1.ConditionFalse
	if ok {
		st = metav1.ConditionTrue
	}
	return moduleconfig.Condition{Type: kind, Status: st, Reason: reason, Message: msg,
		ObservedGeneration: gen, LastTransitionTime: metav1.NewTime(now.UTC().Truncate(time.Second))}
}

// sameStatus tells whether two statuses say the same, times aside.
func sameStatus(a, b moduleconfig.Status) bool {
	if a.Version != b.Version || a.Message != b.Message || len(a.Conditions) != len(b.Conditions) {
		return false
	}
	for i := range a.Conditions {
		x, y := a.Conditions[i], b.Conditions[i]
		x.LastTransitionTime, y.LastTransitionTime = metav1.Time{}, metav1.Time{}
		if x != y {
			return false
		}
	}
	return true
}
