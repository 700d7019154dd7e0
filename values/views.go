package values

// EnabledModulesKey is the key under "global" that lists the enabled modules
// in module hooks' and enabled scripts' $VALUES_PATH.
const EnabledModulesKey = "enabledModules"

// Snapshot is a scope's values as another actor sees them: a plain value
// to carry in a message (the global actor sends its Snapshot to modules).
// Its sections must not be changed. Config and Values are sections: maps
// for the global scope, a map or a list ([]any) for a module.
type Snapshot struct {
	Key    string
	Config any
	Values any
}

// Snapshot returns the scope's current values.
func (s Scope) Snapshot() Snapshot {
	return Snapshot{Key: s.key, Config: s.config, Values: s.values}
}

// HookInput is what a hook or an enabled script reads: the document of
// $CONFIG_VALUES_PATH (the ConfigMap part) and of $VALUES_PATH (the merge).
// Marshal each with encoding/json or MarshalDocument (the same bytes). Its
// maps share data with the snapshots they come from and must not be changed.
type HookInput struct {
	ConfigValues map[string]any
	Values       map[string]any
}

// GlobalHookInput is what a global hook reads: the global values only.
func GlobalHookInput(global Snapshot) HookInput {
	return HookInput{
		ConfigValues: map[string]any{GlobalKey: orEmpty(global.Config)},
		Values:       map[string]any{GlobalKey: orEmpty(global.Values)},
	}
}

// ModuleHookInput is what a module hook or the module's enabled script reads:
// global values and the module's own, with global.enabledModules (the
// enabled modules in run order; for an enabled script, those enabled before
// it) in $VALUES_PATH only.
func ModuleHookInput(global, module Snapshot, enabledModules []string) HookInput {
	return HookInput{
		ConfigValues: map[string]any{
			GlobalKey:  orEmpty(global.Config),
			module.Key: orEmpty(module.Config),
		},
		Values: map[string]any{
			GlobalKey:  withEnabledList(global.Values, enabledModules),
			module.Key: orEmpty(module.Values),
		},
	}
}

// HelmValues is what the module's chart gets as .Values: global and module
// values, without enabledModules.
func HelmValues(global, module Snapshot) map[string]any {
	return map[string]any{
		GlobalKey:  orEmpty(global.Values),
		module.Key: orEmpty(module.Values),
	}
}

// WithEnabledModules returns a shallow copy of globalValues (the global
// section, a map; anything else counts as empty) with enabledModules set
// (an empty list, never null, when none is enabled).
func WithEnabledModules(globalValues any, enabledModules []string) map[string]any {
	list := make([]any, 0, len(enabledModules))
	for _, m := range enabledModules {
		list = append(list, m)
	}
	return withKey(globalValues, EnabledModulesKey, list)
}

// withEnabledList is WithEnabledModules for a hook's input: the list is an
// EnabledList sharing enabledModules (which must not be changed), written
// by MarshalDocument without a copy.
func withEnabledList(globalValues any, enabledModules []string) map[string]any {
	if enabledModules == nil {
		enabledModules = []string{}
	}
	return withKey(globalValues, EnabledModulesKey, EnabledList(enabledModules))
}

// withKey returns a shallow copy of section (a map; anything else counts
// as empty) with key set to v.
func withKey(section any, key string, v any) map[string]any {
	m, _ := section.(map[string]any)
	out := make(map[string]any, len(m)+1)
	for k, x := range m {
		out[k] = x
	}
	out[key] = v
	return out
}
