package moduleconfig

import (
	"errors"
	"fmt"

	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/moduleconfig/conversion"
	"github.com/addon-actors/addon-operator/values"
	"github.com/addon-actors/addon-operator/values/mask"
)

// Target is what a ModuleConfig is checked against: its owner's values
// scope as the owner's actor starts (values files and schemas, no config
// section) and the owner's conversions.
type Target struct {
	// Owner is messages.OwnerGlobal or messages.ModuleOwner(name).
	Owner       string
	Scope       values.Scope
	Conversions conversion.Chain
}

// ModuleTarget is the target of a module's ModuleConfig. The scope's own
// validation error is not final, as when the actor starts: required keys
// may come with the settings, which Validate checks.
func ModuleTarget(def layout.Definition) Target {
	scope, _ := values.NewModuleScope(def.Names, def.Schemas, def.Common, def.Own)
	return Target{Owner: messages.ModuleOwner(def.Names.Name), Scope: scope, Conversions: def.Conversions}
}

// GlobalTarget is the target of the global ModuleConfig: schemas of the
// global hooks dir, $MODULES_DIR/values.yaml, and the global conversions
// (its scope's own validation error is not final, as for ModuleTarget).
func GlobalTarget(schemas values.Schemas, common values.Sections, chain conversion.Chain) Target {
	scope, _ := values.NewGlobalScope(schemas, common)
	return Target{Owner: messages.OwnerGlobal, Scope: scope, Conversions: chain}
}

// Result is what Validate found.
type Result struct {
	// Version is the version the settings are written in; Latest the
	// version they were converted to.
	Version, Latest int
	// Settings are the settings at the latest version; nil when Err is
	// set or there are none.
	Settings map[string]any
	// Err is why the object cannot be applied, naming the field.
	Err error
	// Warnings are for the person who wrote it: an obsolete version, an
	// unknown module, a field that does nothing, a Secret's value that
	// cannot be read here.
	Warnings []string
	// SecretPaths are the paths spec.settingsFrom sets: masked wherever
	// the module's values are shown.
	SecretPaths mask.Paths
}

// Errors of Validate, for errors.Is.
var (
	ErrUnknownVersion = errors.New("unknown settings version")
	ErrNotValid       = errors.New("settings are not valid")
)

// Validate checks a ModuleConfig as both the admission webhook and the
// read side will: its settings converted to the latest version, then taken
// into the owner's scope exactly as a ConfigMap section is
// (hookrun.ApplySection: values files, OpenAPI defaults, config-values
// validation). target is nil for a module no modules dir holds: its
// settings cannot be checked, which is a warning, not an error. A module
// disabled by the object is not schema-checked (its settings are not used).
// spec.settingsFrom cannot be read here: each is a warning, the settings
// checked without it (ValidateFrom reads them).
func Validate(mc ModuleConfig, target *Target) Result { return ValidateFrom(mc, target, nil) }

// ValidateFrom is Validate with the values of spec.settingsFrom taken from
// secrets, set into the settings after their conversion to the latest
// version and checked with them; a missing Secret or key is an error
// naming both. nil secrets: every value is unknown (a warning).
func ValidateFrom(mc ModuleConfig, target *Target, secrets SecretValues) Result {
	r := Result{Version: mc.SettingsVersion(), Latest: 1}
	if err := Check(mc); err != nil {
		r.Err = err
		return r
	}
	at := fmt.Sprintf("ModuleConfig %q", mc.Metadata.Name)
	r.Warnings = ignoredFields(mc)
	r.SecretPaths = SecretPaths(mc.Spec.SettingsFrom)
	if target == nil {
		r.Warnings = append(r.Warnings, fmt.Sprintf("%s: unknown module: no modules dir holds it; its settings are not checked", at))
		r.Latest = r.Version
		r.Settings, r.Err = r.fill(at, mc.Spec.Settings, mc.Spec.SettingsFrom, secrets)
		return r
	}
	chain := target.Conversions
	r.Latest = chain.Latest()
	if !chain.Known(r.Version) {
		msg := fmt.Errorf("%s: spec.version: %w: %d; the latest is %d (accepted: 1 to %d)", at, ErrUnknownVersion, r.Version, r.Latest, r.Latest)
		if len(mc.Spec.Settings) > 0 {
			r.Err = msg
			return r
		}
		r.Warnings = append(r.Warnings, msg.Error())
		return r
	}
	settings, err := chain.Convert(r.Version, mc.Spec.Settings)
	if err != nil {
		r.Err = fmt.Errorf("%s: spec.settings: %w", at, err)
		return r
	}
	if settings, err = r.fill(at, settings, mc.Spec.SettingsFrom, secrets); err != nil {
		r.Err = err
		return r
	}
	if r.Version < r.Latest {
		r.Warnings = append(r.Warnings, fmt.Sprintf("%s: spec.version=%d is obsolete: the latest is %d; the settings are converted on read "+
			"(the object is not changed): write them at version %d", at, r.Version, r.Latest, r.Latest))
	}
	if mc.Spec.Enabled != nil && !*mc.Spec.Enabled && !mc.IsGlobal() {
		r.Settings = settings
		return r
	}
	if _, reply := hookrun.ApplySection(target.Scope, target.Owner, settings); reply.Err != "" {
		r.Err = fmt.Errorf("%s: spec.settings (version %d converted to %d): %w: %s", at, r.Version, r.Latest, ErrNotValid, reply.Err)
		return r
	}
	r.Settings = settings
	return r
}

// fill sets the settingsFrom values into settings, keeping the warnings.
func (r *Result) fill(at string, settings map[string]any, from []SettingFrom, secrets SecretValues) (map[string]any, error) {
	if len(from) == 0 {
		return settings, nil
	}
	out, warnings, err := fillSettings(at, settings, from, secrets)
	r.Warnings = append(r.Warnings, warnings...)
	return out, err
}

// ignoredFields warns of what the operator does not use.
func ignoredFields(mc ModuleConfig) []string {
	at := fmt.Sprintf("ModuleConfig %q", mc.Metadata.Name)
	var out []string
	if mc.IsGlobal() && mc.Spec.Enabled != nil {
		out = append(out, at+": spec.enabled is ignored: the global values cannot be disabled")
	}
	if mc.IsGlobal() && mc.Spec.Maintenance != "" {
		out = append(out, at+": spec.maintenance is ignored: it is for modules")
	}
	if mc.Spec.UpdatePolicy != "" || mc.Spec.Source != "" {
		out = append(out, at+": spec.updatePolicy and spec.source are Deckhouse's and not used here")
	}
	return out
}
