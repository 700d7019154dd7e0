package board

import (
	"maps"
	"slices"

	"github.com/addon-actors/addon-operator/values"
	"github.com/addon-actors/addon-operator/values/mask"
)

// SetPasswords publishes the paths, inside owner's values section, that
// its OpenAPI schemas mark `format: password` ("global" or a module name;
// its actor only): what the debug API and plan mask.
func (b *Board) SetPasswords(owner string, paths mask.Paths) {
	if len(paths) == 0 {
		b.passwords.delete(owner)
		return
	}
	b.passwords.set(owner, paths)
}

// SetConfigSecrets publishes the paths, inside owner's values section,
// whose values its ModuleConfig's spec.settingsFrom takes from Secrets (the
// config actor only): masked as password settings are, one mechanism.
func (b *Board) SetConfigSecrets(owner string, paths mask.Paths) {
	if len(paths) == 0 {
		b.configSecrets.delete(owner)
		return
	}
	b.configSecrets.set(owner, paths)
}

// Passwords returns owner's published password paths: its `format:
// password` settings and the settings its ModuleConfig takes from Secrets.
func (b *Board) Passwords(owner string) mask.Paths {
	p, _ := b.passwords.get(owner)
	if s, ok := b.configSecrets.get(owner); ok {
		return append(slices.Clip(p), s...)
	}
	return p
}

// Secrets are the values every owner's password settings hold now, in its
// config and its values: what is masked wherever it shows up (a chart may
// copy a setting into a ConfigMap or an env var).
func (b *Board) Secrets() mask.Secrets {
	var out mask.Secrets
	owners := map[string]mask.Paths{}
	maps.Copy(owners, b.passwords.copy())
	maps.Copy(owners, b.configSecrets.copy())
	for owner := range owners {
		paths := b.Passwords(owner)
		var s values.Snapshot
		if owner == values.GlobalKey {
			s = b.Global()
		} else {
			s, _ = b.ModuleValues(owner)
		}
		out = out.With(paths.Secrets(s.Config), paths.Secrets(s.Values))
	}
	return out
}
