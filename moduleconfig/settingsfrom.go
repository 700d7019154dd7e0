package moduleconfig

import (
	"errors"
	"fmt"
	"maps"
	"strings"

	"github.com/addon-actors/addon-operator/values/mask"
)

// SettingFrom sets the value at Path (a dotted path into the settings at
// the module's latest version) from one key of a Secret in the operator's
// namespace. The value is a string; it is set after the settings are
// converted, then the whole is checked against the module's schema.
type SettingFrom struct {
	SecretKeyRef SecretKeyRef `json:"secretKeyRef"`
	Path         string       `json:"path"`
}

// SecretKeyRef names one key of a Secret in the operator's namespace.
type SecretKeyRef struct {
	Name string `json:"name"`
	Key  string `json:"key"`
}

// String is "Secret NAME key KEY", for messages (never the value).
func (r SecretKeyRef) String() string { return fmt.Sprintf("Secret %q key %q", r.Name, r.Key) }

// Errors of a SecretValues lookup, for errors.Is.
var (
	// ErrSecretMissing: the Secret or its key does not exist.
	ErrSecretMissing = errors.New("not found")
	// ErrSecretUnknown: the value cannot be read here (the webhook, an
	// offline plan); the settings are checked without it.
	ErrSecretUnknown = errors.New("value unknown")
)

// SecretValues give the value of a Secret's key: ErrSecretMissing when the
// Secret or the key is absent, ErrSecretUnknown when it cannot be read.
type SecretValues interface {
	SecretValue(ref SecretKeyRef) (string, error)
}

// checkSettingsFrom checks each entry's fields, naming the first bad one.
func checkSettingsFrom(at string, from []SettingFrom) error {
	for i, f := range from {
		field := fmt.Sprintf("%s: spec.settingsFrom[%d]", at, i)
		switch {
		case f.SecretKeyRef.Name == "":
			return fmt.Errorf("%s.secretKeyRef.name: %w: missing", field, ErrInvalid)
		case f.SecretKeyRef.Key == "":
			return fmt.Errorf("%s.secretKeyRef.key: %w: missing", field, ErrInvalid)
		}
		if _, err := SplitPath(f.Path); err != nil {
			return fmt.Errorf("%s.path: %w: %v", field, ErrInvalid, err)
		}
	}
	return nil
}

// SplitPath is a dotted path's steps: "db.password" is [db password].
// An empty path or an empty step is an error.
func SplitPath(path string) ([]string, error) {
	if path == "" {
		return nil, errors.New("missing")
	}
	steps := strings.Split(path, ".")
	for _, s := range steps {
		if s == "" {
			return nil, fmt.Errorf("%q has an empty step", path)
		}
	}
	return steps, nil
}

// SecretPaths are the paths settingsFrom sets: what is masked wherever the
// module's values are shown.
func SecretPaths(from []SettingFrom) mask.Paths {
	var out mask.Paths
	for _, f := range from {
		if steps, err := SplitPath(f.Path); err == nil {
			out = append(out, mask.Path(steps))
		}
	}
	return out
}

// SetPath returns a copy of settings with value at the dotted path; the
// maps on the way are copied (the input is left as it was) and created
// when absent. A step through a value that is not an object is an error.
func SetPath(settings map[string]any, path string, value any) (map[string]any, error) {
	steps, err := SplitPath(path)
	if err != nil {
		return nil, err
	}
	out := maps.Clone(settings)
	if out == nil {
		out = map[string]any{}
	}
	cur := out
	for i, step := range steps[:len(steps)-1] {
		next, ok := cur[step]
		if next == nil {
			next, ok = map[string]any{}, true
		}
		m, isMap := next.(map[string]any)
		if !ok || !isMap {
			return nil, fmt.Errorf("%s is not an object", strings.Join(steps[:i+1], "."))
		}
		m = maps.Clone(m)
		cur[step] = m
		cur = m
	}
	cur[steps[len(steps)-1]] = value
	return out, nil
}

// fillSettings sets each settingsFrom value into settings (at the latest
// version). A missing Secret or key is an error naming both (never the
// value); an unknown value is a warning, the settings checked without it.
func fillSettings(at string, settings map[string]any, from []SettingFrom, src SecretValues) (map[string]any, []string, error) {
	var warnings []string
	for i, f := range from {
		field := fmt.Sprintf("%s: spec.settingsFrom[%d]", at, i)
		if src == nil {
			warnings = append(warnings, fmt.Sprintf("%s: %s: %v; the settings are checked without it", field, f.SecretKeyRef, ErrSecretUnknown))
			continue
		}
		v, err := src.SecretValue(f.SecretKeyRef)
		if errors.Is(err, ErrSecretUnknown) {
			warnings = append(warnings, fmt.Sprintf("%s: %s: %v; the settings are checked without it", field, f.SecretKeyRef, err))
			continue
		}
		if err != nil {
			return nil, warnings, fmt.Errorf("%s: %s: %w", field, f.SecretKeyRef, err)
		}
		if settings, err = SetPath(settings, f.Path, v); err != nil {
			return nil, warnings, fmt.Errorf("%s.path: %w", field, err)
		}
	}
	return settings, warnings, nil
}
