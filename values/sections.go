package values

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"sigs.k8s.io/yaml"
)

// ErrInvalidSection is returned for a section that is neither a map, a list
// (module sections only) nor "false", an enabled key that is not a boolean,
// or a file that is not YAML.
var ErrInvalidSection = errors.New("invalid values section")

// Sections is one source of values split by root key: a values.yaml file, or
// the data of ConfigMap/addon-operator. Maps are keyed by values key
// ("someModule"), as the source spells them.
type Sections struct {
	// Global is the "global" section; nil when the source has none.
	Global map[string]any
	// Modules holds each module section that is a map (null reads as {})
	// or a list ([]any); see [MergeSections].
	Modules map[string]any
	// Enabled holds the source's say on each module it mentions: the
	// "xEnabled" key, or false for a section that is "false" (which wins over
	// an "xEnabled" key beside it).
	Enabled map[string]bool
	// FalseSections holds the module keys whose section is "false" (their
	// false in Enabled comes from it, not from an "xEnabled" key); nil
	// when there is none.
	FalseSections map[string]bool
	// Maintenance holds the values keys of the modules in maintenance mode
	// (ConfigMap key "xMaintenance: NoResourceReconciliation", UPSTREAM §7):
	// their hooks run, helm and the absent-resources healing do not. Only
	// the ConfigMap sets it; nil when no module is in maintenance.
	Maintenance map[string]bool
	// Unknown lists, sorted, the root keys that are none of the above; they
	// are kept out of values and reported to the caller.
	Unknown []string
}

// ParseValuesFile parses a values.yaml file ($MODULES_DIR/values.yaml or a
// module's) into sections; file names it in errors.
func ParseValuesFile(file string, data []byte) (Sections, error) {
	var doc map[string]any
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return Sections{}, fmt.Errorf("%s: %w: %v", file, ErrInvalidSection, err)
	}
	return SectionsOf(file, doc)
}

// SectionsOf splits a parsed document by root key; where names the source in
// errors. Every bad key is reported, sorted by key.
func SectionsOf(where string, doc map[string]any) (Sections, error) {
	s := Sections{Modules: map[string]any{}, Enabled: map[string]bool{}}
	var errs []error
	keys := slices.Sorted(maps.Keys(doc))
	falseSections := map[string]bool{}
	for _, key := range keys {
		if _, isEnabledKey := ModuleKeyOfEnabledKey(key); isEnabledKey {
			continue
		}
		if err := s.addSection(key, doc[key], falseSections); err != nil {
			errs = append(errs, fmt.Errorf("%s: key %q: %w", where, key, err))
		}
	}
	for _, key := range keys {
		module, isEnabledKey := ModuleKeyOfEnabledKey(key)
		if !isEnabledKey {
			continue
		}
		b, ok := doc[key].(bool)
		if !ok {
			errs = append(errs, fmt.Errorf("%s: key %q: %w: want true or false, got %s",
				where, key, ErrInvalidSection, describe(doc[key])))
			continue
		}
		if !falseSections[module] {
			s.Enabled[module] = b
		}
	}
	if len(falseSections) > 0 {
		s.FalseSections = falseSections
	}
	return s, errors.Join(errs...)
}

// addSection files the global section or a module section into s.
func (s *Sections) addSection(key string, v any, falseSections map[string]bool) error {
	if key == GlobalKey {
		m, err := globalSection(v)
		s.Global = m
		return err
	}
	if _, err := ModuleNameOf(key); err != nil {
		s.Unknown = append(s.Unknown, key)
		return nil
	}
	if isFalse(v) {
		s.Enabled[key] = false
		falseSections[key] = true
		return nil
	}
	section, err := moduleSection(v)
	if err != nil {
		return err
	}
	s.Modules[key] = section
	return nil
}

func isFalse(v any) bool {
	switch x := v.(type) {
	case bool:
		return !x
	case string:
		return strings.TrimSpace(x) == "false"
	}
	return false
}

func describeKind(v any) string {
	if _, ok := v.([]any); ok {
		return "a list"
	}
	return describe(v)
}
