package whatif

import (
	"fmt"
	"maps"
	"strings"

	"sigs.k8s.io/yaml"
)

// ApplySets applies `--set key=value` edits to ConfigMap data and returns
// new data (data is not changed). A key without a dot is a data key and
// value its whole text ("fooEnabled=false", "global={a: 1}"); a dotted key
// sets one field inside a data key's YAML section ("foo.replicas=3"), the
// value read as YAML (3 is a number, true a boolean), maps created on the
// way.
func ApplySets(data map[string]string, sets []string) (map[string]string, error) {
	out := maps.Clone(data)
	if out == nil {
		out = map[string]string{}
	}
	for _, set := range sets {
		key, value, ok := strings.Cut(set, "=")
		if !ok || key == "" {
			return nil, fmt.Errorf("--set %q: want key=value", set)
		}
		if err := applySet(out, key, value); err != nil {
			return nil, fmt.Errorf("--set %q: %w", set, err)
		}
	}
	return out, nil
}

func applySet(data map[string]string, key, value string) error {
	path := strings.Split(key, ".")
	if len(path) == 1 {
		data[key] = value
		return nil
	}
	for _, p := range path {
		if p == "" {
			return fmt.Errorf("key %q has an empty part", key)
		}
	}
	section := map[string]any{}
	if raw := data[path[0]]; strings.TrimSpace(raw) != "" {
		if err := yaml.Unmarshal([]byte(raw), &section); err != nil {
			return fmt.Errorf("ConfigMap key %q is not a YAML map: %w", path[0], err)
		}
		if section == nil {
			section = map[string]any{}
		}
	}
	var v any
	if err := yaml.Unmarshal([]byte(value), &v); err != nil {
		return fmt.Errorf("value: %w", err)
	}
	if err := setField(section, path[1:], v, path[0]); err != nil {
		return err
	}
	text, err := yaml.Marshal(section)
	if err != nil {
		return fmt.Errorf("ConfigMap key %q: %w", path[0], err)
	}
	data[path[0]] = string(text)
	return nil
}

// setField sets doc[path...] = v, creating maps; a non-map on the way is
// an error naming where it is.
func setField(doc map[string]any, path []string, v any, at string) error {
	for _, p := range path[:len(path)-1] {
		at += "." + p
		next, ok := doc[p]
		if !ok || next == nil {
			m := map[string]any{}
			doc[p] = m
			doc = m
			continue
		}
		m, ok := next.(map[string]any)
		if !ok {
			return fmt.Errorf("%s is not a map", at)
		}
		doc = m
	}
	doc[path[len(path)-1]] = v
	return nil
}
