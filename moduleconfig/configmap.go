package moduleconfig

import (
	"fmt"
	"maps"
	"slices"

	"sigs.k8s.io/yaml"

	"github.com/addon-actors/addon-operator/values"
	"github.com/addon-actors/addon-operator/values/configmap"
)

// Export turns a ConfigMap's sections (configmap.Parse) into the
// ModuleConfigs that configure the modules as it does: "global" first,
// then one per module with a section, an enabled key or a maintenance key,
// by name. A section is at version 1 (a ConfigMap's carry none). What
// cannot be a ModuleConfig (a list section, a key of no module) is left
// out and named in the warnings, so the ConfigMap keeps serving it.
func Export(s values.Sections) ([]ModuleConfig, []string) {
	out := []ModuleConfig{newObject(GlobalName, s.Global)}
	var warnings []string
	for _, key := range moduleKeys(s) {
		name, err := values.ModuleNameOf(key)
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("ConfigMap key %q: not exported: %v", key, err))
			continue
		}
		section, _ := s.Modules[key].(map[string]any)
		if _, isList := s.Modules[key].([]any); isList {
			warnings = append(warnings, fmt.Sprintf("ConfigMap key %q: not exported: its section is a list, "+
				"and a ModuleConfig's settings are an object; keep it in the ConfigMap", key))
			continue
		}
		mc := newObject(name, section)
		if enabled, ok := s.Enabled[key]; ok {
			mc.Spec.Enabled = &enabled
		}
		if s.Maintenance[key] {
			mc.Spec.Maintenance = configmap.NoResourceReconciliation
		}
		out = append(out, mc)
	}
	for _, key := range s.Unknown {
		warnings = append(warnings, fmt.Sprintf("ConfigMap key %q: not exported: not the key of the global values or of a module", key))
	}
	return out, warnings
}

// moduleKeys are the values keys the sections say anything of, sorted.
func moduleKeys(s values.Sections) []string {
	keys := map[string]bool{}
	for _, m := range []map[string]bool{s.Enabled, s.Maintenance} {
		for k := range m {
			keys[k] = true
		}
	}
	for k := range s.Modules {
		keys[k] = true
	}
	return slices.Sorted(maps.Keys(keys))
}

func newObject(name string, settings map[string]any) ModuleConfig {
	mc := ModuleConfig{APIVersion: APIVersion, Kind: Kind, Metadata: Metadata{Name: name}}
	if len(settings) > 0 {
		mc.Spec.Settings, mc.Spec.Version = settings, 1
	}
	return mc
}

// Marshal writes objects as a YAML stream, one document each.
func Marshal(objects []ModuleConfig) ([]byte, error) {
	var out []byte
	for _, mc := range objects {
		doc, err := yaml.Marshal(mc)
		if err != nil {
			return nil, fmt.Errorf("ModuleConfig %q: %w", mc.Metadata.Name, err)
		}
		out = append(append(out, "---\n"...), doc...)
	}
	return out, nil
}

// Overlay lays ModuleConfigs over ConfigMap data, as issue 44's precedence
// says: a module with a ModuleConfig takes its enabled flag, settings and
// maintenance from it, and its ConfigMap section, enabled and maintenance
// keys are ignored; the global ModuleConfig replaces the "global" key.
// The objects' settings must be at the latest version (Validate's
// Result.Settings). It returns new data, and a line for each ConfigMap key
// the objects hid, for a warning.
func Overlay(data map[string]string, objects []ModuleConfig) (map[string]string, []string, error) {
	out := maps.Clone(data)
	if out == nil {
		out = map[string]string{}
	}
	var hidden []string
	for _, mc := range objects {
		keys, err := configMapKeys(mc)
		if err != nil {
			return nil, nil, err
		}
		for _, k := range keys {
			if _, ok := out[k]; ok {
				hidden = append(hidden, fmt.Sprintf("ConfigMap key %q is ignored: ModuleConfig %q configures %s", k, mc.Metadata.Name, mc.Metadata.Name))
				delete(out, k)
			}
		}
		if err := setKeys(out, keys, mc); err != nil {
			return nil, nil, err
		}
	}
	return out, hidden, nil
}

// configMapKeys are the keys of the object's owner in a ConfigMap: its
// section, then (modules) its enabled and maintenance keys.
func configMapKeys(mc ModuleConfig) ([]string, error) {
	if mc.IsGlobal() {
		return []string{values.GlobalKey}, nil
	}
	names, err := values.NamesOf(mc.Metadata.Name)
	if err != nil {
		return nil, fmt.Errorf("ModuleConfig %q: metadata.name: %w", mc.Metadata.Name, err)
	}
	return []string{names.ValuesKey, names.EnabledKey, names.ValuesKey + configmap.MaintenanceSuffix}, nil
}

func setKeys(data map[string]string, keys []string, mc ModuleConfig) error {
	if len(mc.Spec.Settings) > 0 {
		text, err := yaml.Marshal(mc.Spec.Settings)
		if err != nil {
			return fmt.Errorf("ModuleConfig %q: spec.settings: %w", mc.Metadata.Name, err)
		}
		data[keys[0]] = string(text)
	}
	if mc.IsGlobal() {
		return nil
	}
	if mc.Spec.Enabled != nil {
		data[keys[1]] = fmt.Sprint(*mc.Spec.Enabled)
	}
	if mc.Spec.Maintenance != "" {
		data[keys[2]] = mc.Spec.Maintenance
	}
	return nil
}
