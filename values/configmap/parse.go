package configmap

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/addon-actors/addon-operator/values"
)

// Parse parses ConfigMap data. Keys that are neither "global", a module's
// values key, an enabled key nor a maintenance key are listed in Sections.Unknown and left
// alone. Every bad key is reported, by name, in one error; a nil or empty
// data is an empty config.
func Parse(data map[string]string) (values.Sections, error) {
	var c Cache
	return c.Parse(data)
}

// Cache remembers the decoded value of each key's text, so that parsing the
// data again after an edit decodes only the keys whose text changed (YAML
// decoding is most of the cost: about 1 ms for a 200-line section). It is
// a value owned by one caller, the config actor, and not safe for
// concurrent use. The zero value is ready. Sections it returns share maps
// with it and with each other: treat them as read-only.
type Cache struct {
	entries map[string]cacheEntry
}

type cacheEntry struct {
	raw   string
	value any
}

// Parse is the package's Parse, reusing what c decoded before; afterwards c
// holds the keys of data only.
func (c *Cache) Parse(data map[string]string) (values.Sections, error) {
	maintenance, data, errs := splitMaintenance(data)
	doc := make(map[string]any, len(data))
	entries := make(map[string]cacheEntry, len(data))
	for _, key := range slices.Sorted(maps.Keys(data)) {
		if !understood(key) {
			doc[key] = nil // listed as Unknown, never parsed
			continue
		}
		raw := data[key]
		if e, ok := c.entries[key]; ok && e.raw == raw {
			doc[key], entries[key] = e.value, e
			continue
		}
		v, err := decodeKey(key, raw)
		if err != nil {
			errs = append(errs, fmt.Errorf("ConfigMap key %q: %w", key, err))
			continue
		}
		doc[key], entries[key] = v, cacheEntry{raw: raw, value: v}
	}
	c.entries = entries
	sections, err := values.SectionsOf("ConfigMap", doc)
	sections.Maintenance = maintenance
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
