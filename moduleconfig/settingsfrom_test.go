package moduleconfig_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/moduleconfig"
	"github.com/addon-actors/addon-operator/values/mask"
)

// secretsMap is a SecretValues over "name/key" keys; unknown answers
// every lookup with ErrSecretUnknown.
type secretsMap struct {
	m       map[string]string
	unknown bool
}

func (s secretsMap) SecretValue(ref moduleconfig.SecretKeyRef) (string, error) {
	if s.unknown {
		return "", moduleconfig.ErrSecretUnknown
	}
	v, ok := s.m[ref.Name+"/"+ref.Key]
	if !ok {
		return "", moduleconfig.ErrSecretMissing
	}
	return v, nil
}

func from(name, key, path string) moduleconfig.SettingFrom {
	return moduleconfig.SettingFrom{SecretKeyRef: moduleconfig.SecretKeyRef{Name: name, Key: key}, Path: path}
}

func TestCheckSettingsFrom(t *testing.T) {
	tests := []struct {
		name string
		from []moduleconfig.SettingFrom
		err  string
	}{
		{"valid", []moduleconfig.SettingFrom{from("s", "k", "db.password")}, ""},
		{"empty name", []moduleconfig.SettingFrom{from("s", "k", "a"), from("", "k", "b")}, `spec.settingsFrom[1].secretKeyRef.name: invalid ModuleConfig: missing`},
		{"empty key", []moduleconfig.SettingFrom{from("s", "", "a")}, `spec.settingsFrom[0].secretKeyRef.key: invalid ModuleConfig: missing`},
		{"empty path", []moduleconfig.SettingFrom{from("s", "k", "")}, `spec.settingsFrom[0].path: invalid ModuleConfig: missing`},
		{"empty step", []moduleconfig.SettingFrom{from("s", "k", "a"), from("s", "k", "db..password")}, `spec.settingsFrom[1].path: invalid ModuleConfig: "db..password" has an empty step`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mc := object("web", 3, nil, nil)
			mc.Spec.SettingsFrom = tc.from
			err := moduleconfig.Check(mc)
			if tc.err == "" {
				if err != nil {
					t.Fatalf("Check: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.err) || !errors.Is(err, moduleconfig.ErrInvalid) {
				t.Fatalf("Check = %v, want %q", err, tc.err)
			}
		})
	}
}

func TestSetPath(t *testing.T) {
	tests := []struct {
		name     string
		settings map[string]any
		path     string
		want     map[string]any
		err      string
	}{
		{"top level", nil, "token", map[string]any{"token": "v"}, ""},
		{"creates objects", map[string]any{"a": 1}, "db.auth.password", map[string]any{"a": 1, "db": map[string]any{"auth": map[string]any{"password": "v"}}}, ""},
		{"beside others", map[string]any{"db": map[string]any{"host": "h", "password": "old"}}, "db.password",
			map[string]any{"db": map[string]any{"host": "h", "password": "v"}}, ""},
		{"through a scalar", map[string]any{"db": "x"}, "db.password", nil, "db is not an object"},
		{"through a list", map[string]any{"db": []any{1}}, "db.password", nil, "db is not an object"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := mask.Paths{}.Document(tc.settings)
			got, err := moduleconfig.SetPath(tc.settings, tc.path, "v")
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("SetPath = %v, %v; want error %q", got, err, tc.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("SetPath = %v, %v; want %v", got, err, tc.want)
			}
			if !reflect.DeepEqual(tc.settings, before) {
				t.Fatalf("the input was changed: %v", tc.settings)
			}
		})
	}
}

// The Secret's value is set at the path of the latest version's settings
// (after conversion) and checked with the schema; a missing Secret names
// it and its key, never a value; unknown values are warnings.
func TestValidateFrom(t *testing.T) {
	web := webTarget(t)
	secrets := secretsMap{m: map[string]string{"web-secret/image": "registry/web:1"}}
	mc := object("web", 1, nil, map[string]any{"count": 2})
	mc.Spec.SettingsFrom = []moduleconfig.SettingFrom{from("web-secret", "image", "image")}
	r := moduleconfig.ValidateFrom(mc, web, secrets)
	want := map[string]any{"image": "registry/web:1", "resources": map[string]any{"replicas": float64(2)}}
	if r.Err != nil || !reflect.DeepEqual(r.Settings, want) {
		t.Fatalf("ValidateFrom = %v, %v; want %v", r.Settings, r.Err, want)
	}
	if !reflect.DeepEqual(r.SecretPaths, mask.Paths{{"image"}}) {
		t.Fatalf("SecretPaths = %v", r.SecretPaths)
	}

	missing := mc
	missing.Spec.SettingsFrom = []moduleconfig.SettingFrom{from("web-secret", "image", "image"), from("web-secret", "nokey", "image")}
	r = moduleconfig.ValidateFrom(missing, web, secrets)
	if !errors.Is(r.Err, moduleconfig.ErrSecretMissing) || !strings.Contains(r.Err.Error(), `spec.settingsFrom[1]: Secret "web-secret" key "nokey"`) ||
		strings.Contains(r.Err.Error(), "registry/web:1") {
		t.Fatalf("a missing key: %v", r.Err)
	}

	schema := mc
	schema.Spec.SettingsFrom = []moduleconfig.SettingFrom{from("web-secret", "image", "resources.replicas")}
	if r = moduleconfig.ValidateFrom(schema, web, secrets); !errors.Is(r.Err, moduleconfig.ErrNotValid) {
		t.Fatalf("a string where the schema wants an integer: %v", r.Err)
	}

	for _, src := range []moduleconfig.SecretValues{nil, secretsMap{unknown: true}} {
		r = moduleconfig.ValidateFrom(mc, web, src)
		if r.Err != nil || r.Settings["image"] != nil || len(r.Warnings) != 2 ||
			!strings.Contains(r.Warnings[0], `spec.settingsFrom[0]: Secret "web-secret" key "image": value unknown`) {
			t.Fatalf("an unknown value: %v %v %q", r.Settings, r.Err, r.Warnings)
		}
	}
}
