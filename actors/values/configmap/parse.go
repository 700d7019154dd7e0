package configmap

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/addon-actors/addon-operator/actors/values"
)

// Parse parses ConfigMap data. Keys that are neither "global", a module's
// values key nor an enabled key are listed in Sections.Unknown and left
// alone. Every bad key is reported, by name, in one error; a nil or empty
// data is an empty config.
func Parse(data map[string]string) (values.Sections, error) {
	doc := make(map[string]any, len(data))
	var errs []error
	for _, key := range sortedKeys(data) {
		if !understood(key) {
			doc[key] = nil // listed as Unknown, never parsed
			continue
		}
		v, err := decodeKey(key, data[key])
		if err != nil {
			errs = append(errs, fmt.Errorf("ConfigMap key %q: %w", key, err))
			continue
		}
		doc[key] = v
	}
	sections, err := values.SectionsOf("ConfigMap", doc)
	return sections, errors.Join(append(errs, err)...)
}

// understood tells whether key is "global", a module's values key or an
// enabled key.
func understood(key string) bool {
	if key == values.GlobalKey {
		return true
	}
	if _, ok := values.ModuleKeyOfEnabledKey(key); ok {
		return true
	}
	_, err := values.ModuleNameOf(key)
	return err == nil
}

// decodeKey reads one data value: "true"/"false" for an enabled key, YAML
// for the rest.
func decodeKey(key, raw string) (any, error) {
	if _, ok := values.ModuleKeyOfEnabledKey(key); ok {
		switch strings.TrimSpace(raw) {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
		return nil, fmt.Errorf("%w: want \"true\" or \"false\", got %q", values.ErrInvalidSection, raw)
	}
	var v any
	if err := yaml.Unmarshal([]byte(raw), &v); err != nil {
		return nil, fmt.Errorf("%w: %v", values.ErrInvalidSection, err)
	}
	return v, nil
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
